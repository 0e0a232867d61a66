import { AGREEMENT_TYPES, API, type Agreement, type AgreementType } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, request } from '../../../api/client';
import { useLang } from '../../../i18n';
import { RichTextView } from '../../../resource/RichTextView';
import { LanguageSwitch } from '../../LanguageSwitch';
import { addMessages } from '../../../i18n/lazy';
import { policyPageEn, policyPageZh } from '../../../i18n/policyPage';

addMessages('policyPage', { zh: policyPageZh, en: policyPageEn });

function isAgreementType(id: string | undefined): id is AgreementType {
  return (AGREEMENT_TYPES as readonly string[]).includes(id ?? '');
}

/** The server answers an unknown or unpublished agreement with 404 (or 400 for a type it does not know). */
function isMissing(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 404 || err.code === 400);
}

/** /policy/:id (public): the latest published user agreement or privacy policy, in the UI language. */
export function PolicyPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { id } = useParams();
  const lang = useLang();
  const navigate = useNavigate();
  const location = useLocation();
  const known = isAgreementType(id);

  const agreement = useQuery({
    queryKey: ['agreement', id, lang],
    queryFn: () => request<Agreement | null>(API.agreement, { query: { type: id }, silent: true }),
    enabled: known,
  });

  // arrived here directly (no page to go back to): go to the console, which sends visitors to /login
  const back = () => (location.key === 'default' ? navigate('/', { replace: true }) : navigate(-1));
  const missing = !known || isMissing(agreement.error) || (agreement.isSuccess && !agreement.data);

  let body;
  if (missing) {
    body = (
      <div data-testid="policy-not-found">
        <Result status="404" title={t('policyPage.notFoundTitle')} subTitle={t('policyPage.notFound', { id })} />
      </div>
    );
  } else if (agreement.isError) {
    body = (
      <div data-testid="policy-error">
        <Result
          status="error"
          title={t('policyPage.loadFailed')}
          subTitle={agreement.error.message}
          extra={<Button onClick={() => void agreement.refetch()}>{t('policyPage.retry')}</Button>}
        />
      </div>
    );
  } else if (!agreement.data) {
    body = <Skeleton active paragraph={{ rows: 8 }} />;
  } else {
    const a = agreement.data;
    body = (
      <article data-testid="policy" data-type={a.type}>
        <Typography.Title level={2} style={{ marginTop: 0 }} data-testid="policy-title">{a.title}</Typography.Title>
        <Typography.Paragraph type="secondary" data-testid="policy-meta">
          {t('policyPage.version', { version: a.version })} · {t('policyPage.published', { time: a.publishTime })}
        </Typography.Paragraph>
        <div data-testid="policy-content">
          <RichTextView html={a.content} />
        </div>
      </article>
    );
  }

  return (
    <div style={{ minHeight: '100vh', background: token.colorBgLayout, padding: 16 }}>
      <div style={{ maxWidth: 860, margin: '0 auto' }}>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
          <Button onClick={back} data-testid="policy-back">{t('policyPage.back')}</Button>
          <LanguageSwitch />
        </div>
        <main style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: 32, boxShadow: token.boxShadowTertiary }}>
          {body}
        </main>
      </div>
    </div>
  );
}
