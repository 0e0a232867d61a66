import { Engine } from 'bpmn-engine';
import jexl from 'jexl';

/**
 * Expressions as Flowable models write them (JUEL): `${days > 3}`, `${approved == false}`, `${applicant}`,
 * `${days gt 3 and not approved}`. bpmn-engine's own resolver reads property paths only
 * (`${environment.variables.days}`); those still go to it, anything else is evaluated by jexl (no JavaScript
 * `eval`, no access to anything but the values given) against the process variables.
 */
const evaluator = new jexl.Jexl();
/** bpmn-elements does not export its resolver: an environment carries it */
const builtin = new Engine().environment.expressions as BuiltinExpressions;
const PROPERTY_PATH = /^(environment|content|properties|fields)\b[\w.[\]\-\s]*(\(.*\))?$/;
const WHOLE = /^\$\{([\s\S]+?)\}$/;
const ANY = /\$\{([\s\S]+?)\}/g;
const STRING_LITERAL = /("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')/;
const JUEL_WORDS: Array<[RegExp, string]> = [
  [/\band\b/g, '&&'], [/\bor\b/g, '||'], [/\bnot\b/g, '!'], [/\beq\b/g, '=='], [/\bne\b/g, '!='],
  [/\bgt\b/g, '>'], [/\blt\b/g, '<'], [/\bge\b/g, '>='], [/\ble\b/g, '<='],
  [/\bempty\s+([A-Za-z_$][\w.$]*)/g, '($1 == null || $1 == "")'],
];

interface BuiltinExpressions {
  isExpression(text: unknown): boolean;
  hasExpression(text: unknown): boolean;
  resolveExpression(template: string, context?: unknown, fnContext?: unknown): unknown;
}

type ExpressionContext = { environment?: { variables?: Record<string, unknown> }; content?: unknown } | undefined;

/** JUEL's word operators as jexl's symbols, outside string literals */
export function juelToJexl(source: string): string {
  return source.split(STRING_LITERAL).map((part, i) => (i % 2 ? part : JUEL_WORDS.reduce((s, [re, to]) => s.replace(re, to), part))).join('');
}

function evaluate(inner: string, context: ExpressionContext, fnContext: unknown): unknown {
  const text = inner.trim();
  if (PROPERTY_PATH.test(text)) return builtin.resolveExpression(`\${${text}}`, context, fnContext);
  return evaluator.evalSync(juelToJexl(text), { ...(context?.environment?.variables ?? {}), content: context?.content });
}

/** Throws the evaluator's message when an expression cannot be parsed (checked when a model is deployed). */
export function checkExpression(template: string): void {
  for (const [, inner] of template.matchAll(ANY)) {
    const text = inner!.trim();
    if (!PROPERTY_PATH.test(text)) evaluator.compile(juelToJexl(text));
  }
}

/** The engine's `expressions` option. */
export const juelExpressions: BuiltinExpressions = {
  isExpression: (text) => builtin.isExpression(text),
  hasExpression: (text) => builtin.hasExpression(text),
  resolveExpression(template, context, fnContext) {
    if (typeof template !== 'string') return template;
    const whole = WHOLE.exec(template);
    if (whole) return evaluate(whole[1]!, context as ExpressionContext, fnContext);
    if (!builtin.hasExpression(template)) return template;
    return template.replace(ANY, (_, inner: string) => {
      const v = evaluate(inner, context as ExpressionContext, fnContext);
      return v === undefined || v === null ? '' : String(v);
    });
  },
};
