import type { FieldDef } from '@console/contract';
import type { CSSProperties } from 'react';
import type { DictMap } from './dictValues';
import { displayText, EMPTY_TEXT, type YesNo } from './display';
import { fileName, safeLink } from './links';

export const THUMB_STYLE: CSSProperties = { width: 32, height: 32, objectFit: 'cover', borderRadius: 4, verticalAlign: 'middle' };

export interface FieldValueProps {
  name: string;
  field: FieldDef;
  record: Readonly<Record<string, unknown>>;
  dicts: DictMap;
  yesNo: YesNo;
  /** the word for a reference whose row is gone (resource.refDeleted) */
  refDeleted?: string;
  /** a larger thumbnail (the detail drawer) */
  large?: boolean;
}

/** Whether a field shows as a link or a picture rather than as text. */
export function isFileField(field: FieldDef): boolean {
  return field.type === 'file' || field.type === 'image';
}

/** A field's value for people: a file as a link, an image as a thumbnail, anything else as text (displayText). */
export function FieldValue({ name, field, record, dicts, yesNo, refDeleted, large = false }: FieldValueProps) {
  const value = record[name];
  if (field.multiple && typeof value === 'string' && value !== '') {
    const one = (link: string) => <FieldValue key={link} name={name} field={{ ...field, multiple: undefined }} record={{ [name]: link }} dicts={dicts} yesNo={yesNo} large={large} />;
    return <span style={{ display: 'inline-flex', gap: 4, flexWrap: 'wrap' }}>{value.split(',').filter(Boolean).map(one)}</span>;
  }
  if (isFileField(field) && typeof value === 'string' && value !== '') {
    const link = safeLink(value);
    if (!link) return <>{value}</>;
    const size = large ? 96 : 32;
    return (
      <a href={link} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
        {field.type === 'image' ? <img src={link} alt="" style={{ ...THUMB_STYLE, width: size, height: size }} /> : fileName(link)}
      </a>
    );
  }
  if (isFileField(field)) return <>{EMPTY_TEXT}</>;
  return <>{displayText(field, value, dicts, { name, record, yesNo, refDeleted })}</>;
}
