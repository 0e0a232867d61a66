import { createRequire } from 'node:module';
import type jexl from 'jexl';

/**
 * Expressions as Flowable models write them (JUEL): `${days > 3}`, `${approved == false}`, `${applicant}`,
 * `${days gt 3 and not approved}`, `${empty comment}`, `#{…}`, and the property path `${environment.variables.days}`
 * models written for the earlier engine used.
 *
 * jexl only parses them. They are evaluated here, by a walk of jexl's tree that reads nothing but data: the
 * variables visible where the expression is read, one own property of a plain object or an array at a time. A
 * name that is no variable is an error, as in Flowable; a property a value lacks is null.
 * A model is a tenant's upload, so nothing else is reachable: no inherited property (`x.constructor`, a string's
 * methods), no property named `constructor`, `__proto__` or `prototype`, no function of any kind (jexl's
 * functions and transforms are refused), and of the engine's `environment` only its variables.
 */
let parser: InstanceType<typeof jexl.Jexl> | undefined;
/** jexl's parser, loaded at the first expression read, not at start (bench/RESULTS.md, "The embedded database's idle memory") */
const jexlParser = () => (parser ??= new (createRequire(import.meta.url)('jexl') as typeof jexl).Jexl());
/**
 * the inside of `${…}`: anything but a closing brace, which may appear inside a quoted text; bounded, so that an
 * unclosed `${${${…` is read in linear time, not quadratic (compile refuses longer texts before they get here)
 */
const INNER = String.raw`((?:[^}"']|"(?:\\.|[^"\\]){0,2000}"|'(?:\\.|[^'\\]){0,2000}'){1,2000})`;
const WHOLE = new RegExp(String.raw`^\$\{${INNER}\}$`);
const WHOLE_HASH = new RegExp(String.raw`^#\{${INNER}\}$`);
const ANY = new RegExp(String.raw`[$#]\{${INNER}\}`, 'g');
const HAS = new RegExp(String.raw`[$#]\{${INNER}\}`);
const STRING_LITERAL = /("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')/;
const JUEL_WORDS: Array<[RegExp, string]> = [
  [/\band\b/g, '&&'], [/\bor\b/g, '||'], [/\bnot\b/g, '!'], [/\beq\b/g, '=='], [/\bne\b/g, '!='],
  [/\bgt\b/g, '>'], [/\blt\b/g, '<'], [/\bge\b/g, '>='], [/\ble\b/g, '<='],
  [/\bempty\s+([A-Za-z_$][\w.$]*)/g, '($1 == null || $1 == "")'],
];
const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype']);

/** An expression that cannot be read or evaluated; the message names the expression and why. */
export class ExpressionError extends Error {}

type Ast =
  | { type: 'Literal'; value: unknown }
  | { type: 'Identifier'; value: string; from?: Ast; relative?: boolean }
  | { type: 'BinaryExpression'; operator: string; left: Ast; right: Ast }
  | { type: 'UnaryExpression'; operator: string; right: Ast }
  | { type: 'ConditionalExpression'; test: Ast; consequent?: Ast; alternate: Ast }
  | { type: 'FilterExpression'; subject: Ast; expr: Ast; relative: boolean }
  | { type: 'ArrayLiteral'; value: Ast[] }
  | { type: 'ObjectLiteral'; value: Record<string, Ast> }
  | { type: 'FunctionCall'; name: string; pool: string };

/** JUEL's word operators as jexl's symbols, outside string literals */
export function juelToJexl(source: string): string {
  return source.split(STRING_LITERAL).map((part, i) => (i % 2 ? part : JUEL_WORDS.reduce((s, [re, to]) => s.replace(re, to), part))).join('');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** one own property of data; anything else is refused or undefined */
function member(subject: unknown, key: unknown): unknown {
  if (subject === undefined || subject === null) return undefined;
  const name = typeof key === 'number' ? key : typeof key === 'string' ? key : undefined;
  if (name === undefined) throw new ExpressionError(`a property name is a text or a number, not ${typeof key}`);
  if (typeof name === 'string' && FORBIDDEN.has(name)) throw new ExpressionError(`"${name}" cannot be read`);
  if (Array.isArray(subject) || typeof subject === 'string') {
    if (name === 'length') return subject.length;
    const index = typeof name === 'number' ? name : /^\d+$/.test(name) ? Number(name) : NaN;
    if (Number.isInteger(index)) return index < subject.length ? subject[index] : undefined;
    // jexl's rule: a property of a list is its first item's
    return Array.isArray(subject) ? member(subject[0], name) : undefined;
  }
  if (!isPlainObject(subject)) return undefined;
  return Object.prototype.hasOwnProperty.call(subject, name) ? data(subject[name as string]) : undefined;
}

/** a function read from the data (never from JSON, but a message may carry one) is not a value */
const data = (v: unknown): unknown => (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint' ? undefined : v);

const looseEquals = (a: unknown, b: unknown) => (a === undefined ? null : a) === (b === undefined ? null : b) || (typeof a !== 'object' && typeof b !== 'object' && a == b);

const primitive = (v: unknown, op: string): string | number | boolean | null | undefined => {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw new ExpressionError(`"${op}" takes texts, numbers or booleans`);
};

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  '==': looseEquals,
  '!=': (a, b) => !looseEquals(a, b),
  '>': (a, b) => (primitive(a, '>') as number) > (primitive(b, '>') as number),
  '>=': (a, b) => (primitive(a, '>=') as number) >= (primitive(b, '>=') as number),
  '<': (a, b) => (primitive(a, '<') as number) < (primitive(b, '<') as number),
  '<=': (a, b) => (primitive(a, '<=') as number) <= (primitive(b, '<=') as number),
  '+': (a, b) => (primitive(a, '+') as number) + (primitive(b, '+') as number),
  '-': (a, b) => (primitive(a, '-') as number) - (primitive(b, '-') as number),
  '*': (a, b) => (primitive(a, '*') as number) * (primitive(b, '*') as number),
  '/': (a, b) => (primitive(a, '/') as number) / (primitive(b, '/') as number),
  '//': (a, b) => Math.floor((primitive(a, '//') as number) / (primitive(b, '//') as number)),
  '%': (a, b) => (primitive(a, '%') as number) % (primitive(b, '%') as number),
  '^': (a, b) => (primitive(a, '^') as number) ** (primitive(b, '^') as number),
  in: (a, b) => {
    if (Array.isArray(b)) return b.some((x) => looseEquals(x, a));
    if (typeof b === 'string') return typeof a === 'string' && b.includes(a);
    throw new ExpressionError('"in" takes a list or a text on its right');
  },
};

interface Scope {
  variables: Record<string, unknown>;
  /** an unknown variable is an error (Flowable's PropertyNotFoundException), not undefined */
  strict?: boolean;
  relative?: unknown;
}

function root(name: string, scope: Scope): unknown {
  if (FORBIDDEN.has(name)) throw new ExpressionError(`"${name}" cannot be read`);
  // JUEL's literal (jexl reads it as a name)
  if (name === 'null') return null;
  // of the engine's environment, only its variables
  if (name === 'environment') return { variables: scope.variables };
  // as JUEL in Flowable: a name that is no variable cannot be resolved (a property of a value that lacks it is null)
  if (scope.strict && !Object.prototype.hasOwnProperty.call(scope.variables, name)) throw new ExpressionError(`no variable "${name}"`);
  return member(scope.variables, name);
}

function evalAst(ast: Ast, scope: Scope): unknown {
  switch (ast.type) {
    case 'Literal':
      return ast.value;
    case 'Identifier':
      if (ast.from) return member(evalAst(ast.from, scope), ast.value);
      return ast.relative ? member(scope.relative, ast.value) : root(ast.value, scope);
    case 'UnaryExpression':
      if (ast.operator !== '!') throw new ExpressionError(`unknown operator ${ast.operator}`);
      return !evalAst(ast.right, scope);
    case 'BinaryExpression': {
      if (ast.operator === '&&') return evalAst(ast.left, scope) && evalAst(ast.right, scope);
      if (ast.operator === '||') return evalAst(ast.left, scope) || evalAst(ast.right, scope);
      const op = BINARY[ast.operator];
      if (!op || !Object.prototype.hasOwnProperty.call(BINARY, ast.operator)) throw new ExpressionError(`unknown operator ${ast.operator}`);
      return op(evalAst(ast.left, scope), evalAst(ast.right, scope));
    }
    case 'ConditionalExpression': {
      const test = evalAst(ast.test, scope);
      if (test) return ast.consequent ? evalAst(ast.consequent, scope) : test;
      return evalAst(ast.alternate, scope);
    }
    case 'FilterExpression': {
      const subject = evalAst(ast.subject, scope);
      if (ast.relative) {
        const items = Array.isArray(subject) ? subject : subject === undefined || subject === null ? [] : [subject];
        return items.filter((item) => evalAst(ast.expr, { ...scope, relative: item }));
      }
      const key = evalAst(ast.expr, scope);
      if (typeof key === 'boolean') return key ? subject : undefined;
      return member(subject, key);
    }
    case 'ArrayLiteral':
      return ast.value.map((x) => evalAst(x, scope));
    case 'ObjectLiteral': {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of Object.entries(ast.value)) {
        if (FORBIDDEN.has(k)) throw new ExpressionError(`"${k}" cannot be a key`);
        out[k] = evalAst(v, scope);
      }
      return { ...out };
    }
    case 'FunctionCall':
      throw new ExpressionError(`no function "${ast.name}" (an expression reads variables only)`);
    default:
      throw new ExpressionError(`unknown construct ${(ast as { type: string }).type}`);
  }
}

/** refuses what can never be evaluated: functions, transforms, forbidden names */
function checkAst(ast: Ast): void {
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as Ast;
    if (n.type === 'FunctionCall') {
      throw new ExpressionError(n.pool === 'transforms' ? `no transform "${n.name}"` : `no function "${n.name}" (an expression reads variables only)`);
    }
    if (n.type === 'Identifier' && FORBIDDEN.has(n.value)) throw new ExpressionError(`"${n.value}" cannot be read`);
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object') visit(v);
    }
  };
  visit(ast);
}

const parsed = new Map<string, Ast>();
const PARSED_CACHE = 500;

function parse(inner: string): Ast {
  const text = inner.trim();
  const known = parsed.get(text);
  if (known) return known;
  let ast: Ast;
  try {
    ast = jexlParser().compile(juelToJexl(text))._getAst() as Ast;
  } catch (e) {
    throw new ExpressionError((e as Error).message);
  }
  checkAst(ast);
  if (parsed.size >= PARSED_CACHE) parsed.delete(parsed.keys().next().value as string);
  parsed.set(text, ast);
  return ast;
}

/** Throws why, when an expression cannot be parsed or could never be evaluated (checked when a model is deployed). */
export function checkExpression(template: string): void {
  for (const [, inner] of template.matchAll(ANY)) parse(inner!);
}

/** Whether a text holds an expression (`${…}` or `#{…}`). */
export const hasExpression = (text: unknown): text is string => typeof text === 'string' && HAS.test(text);

function evaluate(inner: string, variables: Record<string, unknown>): unknown {
  try {
    return evalAst(parse(inner), { variables, strict: true });
  } catch (e) {
    throw new ExpressionError(`the expression \${${inner.trim()}} cannot be evaluated: ${(e as Error).message}`);
  }
}

/**
 * A text's value with the variables visible where it is read: one whole expression gives its value as is
 * (`${approvers}` a list), expressions inside a text are replaced by their values (`Round ${loopCounter}`).
 */
export function evaluateExpression(template: string, variables: Record<string, unknown>): unknown {
  const whole = WHOLE.exec(template) ?? WHOLE_HASH.exec(template);
  if (whole) return evaluate(whole[1]!, variables);
  if (!HAS.test(template)) return template;
  return template.replace(ANY, (_, inner: string) => {
    const v = evaluate(inner, variables);
    return v === undefined || v === null ? '' : String(v);
  });
}
