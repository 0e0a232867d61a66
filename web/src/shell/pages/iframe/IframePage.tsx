import { Button, Result } from 'antd';
import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useSession } from '../../../store/session';
import { menuByCode } from '../../layout/menuTree';
import { embeddableUrl, sandboxFor } from './embedUrl';
import { addMessages } from '../../../i18n/lazy';
import { iframePageEn, iframePageZh } from '../../../i18n/iframePage';

addMessages('iframePage', { zh: iframePageZh, en: iframePageEn });

/** The layout's padding under the page. */
const CONTENT_PADDING = 16;
const MIN_HEIGHT = 240;

/** The height from the element's top to the bottom of the window (less the layout's padding), kept on resize. */
function useHeightToWindowBottom(ref: RefObject<HTMLElement | null>, shown: boolean): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(MIN_HEIGHT, window.innerHeight - top - CONTENT_PADDING));
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [ref, shown]);
  return height;
}

/**
 * /myiframe/:routerPath: an external page in a sandboxed frame filling the content area. The address is
 * the `src` query, else the http(s) path of the menu entry named by `routerPath`; only http(s) is framed.
 */
export function IframePage() {
  const { t } = useTranslation();
  const { routerPath = '' } = useParams();
  const [search] = useSearchParams();
  const menu = useSession((s) => s.menu);
  const signedIn = useSession((s) => Boolean(s.token?.content));
  const raw = search.get('src') ?? menuByCode(menu, routerPath)?.path ?? '';
  const url = useMemo(() => embeddableUrl(raw), [raw]);
  const box = useRef<HTMLDivElement>(null);
  const fitted = useHeightToWindowBottom(box, url !== null);

  if (!url) {
    return (
      <div data-testid="iframe-refused">
        <Result status="warning" title={t(raw ? 'iframePage.refused' : 'iframePage.missing')} subTitle={raw || undefined} />
      </div>
    );
  }
  // inside the layout: the room left under the header and the tab bar; a visitor's page is the whole window
  const height = signedIn ? (fitted ?? '100vh') : '100vh';
  return (
    <div ref={box} style={{ position: 'relative', height }} data-testid="iframe-page">
      <iframe
        key={url.href}
        src={url.href}
        title={search.get('name') || url.host}
        sandbox={sandboxFor(url, window.location.origin)}
        referrerPolicy="no-referrer"
        style={{ border: 0, width: '100%', height: '100%', display: 'block' }}
        data-testid="iframe-frame"
      />
      <Button
        size="small"
        href={url.href}
        target="_blank"
        rel="noopener noreferrer"
        style={{ position: 'absolute', right: 16, bottom: 16, opacity: 0.85 }}
        data-testid="iframe-open-window"
      >
        {t('iframePage.openInNewWindow')}
      </Button>
    </div>
  );
}
