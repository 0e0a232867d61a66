import { type I18nText, type Lang, t } from '../../i18n.js';

/** What a named value a device reports means (docs/device-protocol.md): its label, and the words of its values. */
interface DeviceValueDef {
  label: I18nText;
  values?: Readonly<Record<string, I18nText>>;
  unit?: string;
}

const FLAG = { true: { zh: '是', en: 'Yes' }, false: { zh: '否', en: 'No' }, 1: { zh: '是', en: 'Yes' }, 0: { zh: '否', en: 'No' } };

/** The values a lock reports (property `report`, the `get_status` answer) and the answers of its commands. */
export const DEVICE_VALUES: Readonly<Record<string, DeviceValueDef>> = {
  enabled: { label: { zh: '启用', en: 'Enabled' }, values: FLAG },
  bound: { label: { zh: '已绑定', en: 'Bound' }, values: FLAG },
  lock_state: { label: { zh: '门锁状态', en: 'Lock state' }, values: { 0: { zh: '未上锁', en: 'Unlocked' }, 1: { zh: '已上锁', en: 'Locked' } } },
  battery: { label: { zh: '电量', en: 'Battery' }, unit: '%' },
  rssi: { label: { zh: '信号强度', en: 'Signal strength' }, unit: ' dBm' },
  version: { label: { zh: '固件版本', en: 'Firmware version' } },
  msg: { label: { zh: '信息', en: 'Message' } },
  code: { label: { zh: '错误码', en: 'Error code' } },
};

export interface DeviceValueItem {
  key: string;
  label: string;
  value: string;
}

/** One value as words: a known value by its name, an unknown one as it is; an object's own values inline. */
function valueText(def: DeviceValueDef | undefined, v: unknown, lang: Lang): string {
  if (v === null || v === undefined || v === '') return '-';
  const known = def?.values?.[String(v)];
  if (known) return t(known, lang);
  if (typeof v === 'object') return deviceValueItems(v as Record<string, unknown>, lang).map((i) => `${i.label}: ${i.value}`).join(', ') || '-';
  return `${String(v)}${def?.unit ?? ''}`;
}

/** A device's named values as labelled items in `lang`, known ones first, an unknown key under its own name (never JSON). */
export function deviceValueItems(values: Readonly<Record<string, unknown>>, lang: Lang): DeviceValueItem[] {
  const keys = Object.keys(values);
  const order = [...keys.filter((k) => Object.hasOwn(DEVICE_VALUES, k)), ...keys.filter((k) => !Object.hasOwn(DEVICE_VALUES, k))];
  return order.map((key) => {
    const def = Object.hasOwn(DEVICE_VALUES, key) ? DEVICE_VALUES[key] : undefined;
    return { key, label: def ? t(def.label, lang) : key, value: valueText(def, values[key], lang) };
  });
}

/** The same as one line: "启用: 否; 门锁状态: 已上锁". */
export function deviceValuesText(values: Readonly<Record<string, unknown>>, lang: Lang): string {
  return deviceValueItems(values, lang).map((i) => `${i.label}: ${i.value}`).join('; ');
}
