import { useMemo } from 'react';
import { sanitizeHtml } from './sanitizeHtml';
import './richText.css';

/** Renders stored rich text (HTML) read-only. */
export function RichTextView({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: clean }} />;
}
