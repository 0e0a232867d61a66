/**
 * A small allow-list HTML cleaner for rich text (defence in depth: the server sanitises what it
 * stores). Unknown elements are unwrapped, dangerous ones dropped with their content, and only a few
 * attributes survive, with links limited to http(s), mailto and relative targets.
 */

const DROPPED = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'LINK', 'META', 'TEMPLATE', 'FORM', 'INPUT', 'BUTTON', 'TEXTAREA', 'SELECT', 'SVG', 'MATH']);

const ALLOWED = new Set([
  'P', 'BR', 'DIV', 'SPAN', 'B', 'STRONG', 'I', 'EM', 'U', 'S', 'STRIKE', 'SUB', 'SUP', 'A', 'UL', 'OL', 'LI',
  'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'PRE', 'CODE', 'HR', 'IMG',
  'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD',
]);

const ALLOWED_ATTRS: Record<string, readonly string[]> = {
  A: ['href', 'title', 'target'],
  IMG: ['src', 'alt', 'title', 'width', 'height'],
  TD: ['colspan', 'rowspan'],
  TH: ['colspan', 'rowspan'],
};

const SAFE_HREF = /^(https?:|mailto:|\/|#)/i;
const SAFE_SRC = /^(https?:|\/|data:image\/(png|jpe?g|gif|webp);)/i;

function cleanAttributes(el: Element): void {
  const allowed = ALLOWED_ATTRS[el.tagName] ?? [];
  for (const attr of [...el.attributes]) {
    const value = attr.value.trim();
    const keep =
      allowed.includes(attr.name) &&
      (attr.name !== 'href' || SAFE_HREF.test(value)) &&
      (attr.name !== 'src' || SAFE_SRC.test(value));
    if (!keep) el.removeAttribute(attr.name);
  }
  if (el.tagName === 'A' && el.getAttribute('target') === '_blank') el.setAttribute('rel', 'noopener noreferrer');
}

function cleanChildren(parent: Node): void {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.COMMENT_NODE) {
      node.remove();
    } else if (node instanceof Element) {
      if (DROPPED.has(node.tagName.toUpperCase())) {
        node.remove();
        continue;
      }
      cleanChildren(node);
      if (ALLOWED.has(node.tagName)) cleanAttributes(node);
      else node.replaceWith(...node.childNodes);
    }
  }
}

export function sanitizeHtml(html: string): string {
  if (!html) return '';
  // DOMParser documents are inert: nothing in them loads or runs while they are cleaned.
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  cleanChildren(doc.body);
  return doc.body.innerHTML;
}
