import { CURRENCY_SYMBOLS, type Currency, minorDigits } from '@console/contract';
import { Input, type InputProps } from 'antd';
import type { ChangeEvent } from 'react';
import { acceptsAmountTyping } from './moneyValues';

/** what the form item gives its input (id, onBlur for the validation trigger…), and the amount's own */
export interface MoneyInputProps extends Omit<InputProps, 'value' | 'onChange' | 'prefix' | 'inputMode'> {
  /** the typed text, in major units ('19.90'): the form converts it to minor units when it is sent */
  value?: unknown;
  onChange?: (value: string) => void;
  currency: Currency;
}

/**
 * An amount typed in major units of `currency`, its sign before it (¥, $, HK$): a text box with the numeric keypad,
 * never a number box, so no float holds the amount; more digits after the point than the currency has (any for
 * JPY), a sign or a letter are not taken.
 */
export function MoneyInput({ value, onChange, currency, ...rest }: MoneyInputProps) {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const onTyped = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.target.value.trim();
    if (acceptsAmountTyping(typed, currency)) onChange?.(typed);
  };
  return (
    <Input
      {...rest}
      value={text}
      onChange={onTyped}
      prefix={CURRENCY_SYMBOLS[currency]}
      inputMode={minorDigits(currency) ? 'decimal' : 'numeric'}
      autoComplete="off"
    />
  );
}
