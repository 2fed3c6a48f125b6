/**
 * Renders a model's chat template: the Jinja subset chat templates use (for, if/elif/else,
 * set, output with string concatenation, comparisons, and/or/not, `in`, `is defined`, subscripts,
 * attributes, `loop.*`, the trim and length filters, raise_exception). Anything else is refused
 * by name, never rendered wrongly.
 */

import { recogniseFormat, renderFormat, type ChatFormat, type ChatMessage } from './chat-families';

export type { ChatMessage } from './chat-families';

type Value = unknown;
type Scope = Map<string, Value>;
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'output'; expr: Expr }
  | { kind: 'for'; name: string; iterable: Expr; body: Node[] }
  | { kind: 'if'; branches: { test?: Expr; body: Node[] }[] }
  | { kind: 'set'; name: string; value: Expr };
type Expr = (scope: Scope) => Value;

class TemplateError extends Error {
  constructor(message: string) {
    super(`Chat template: ${message}`);
  }
}

const TOKEN = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\d+|[A-Za-z_][A-Za-z0-9_]*|==|!=|<=|>=|[-+*/%~<>()[\]{}.,|:=]|\S/g;

function unescape(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

const truthy = (value: Value): boolean => (Array.isArray(value) ? value.length > 0 : Boolean(value));

/** A recursive-descent parser over one tag's tokens. */
class Expression {
  private at = 0;
  constructor(private readonly tokens: string[]) {}

  static parse(source: string): Expr {
    const parser = new Expression(source.match(TOKEN) ?? []);
    const expr = parser.or();
    if (parser.at < parser.tokens.length) throw new TemplateError(`unexpected "${parser.tokens[parser.at]}" in "${source.trim()}"`);
    return expr;
  }

  private peek = (): string | undefined => this.tokens[this.at];
  private take(expected?: string): string {
    const token = this.tokens[this.at++];
    if (token === undefined || (expected !== undefined && token !== expected))
      throw new TemplateError(`expected "${expected ?? 'more'}", found "${token ?? 'the end'}"`);
    return token;
  }

  private or(): Expr {
    let left = this.and();
    while (this.peek() === 'or') {
      this.take();
      const [l, r] = [left, this.and()];
      left = (s) => truthy(l(s)) || truthy(r(s));
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.peek() === 'and') {
      this.take();
      const [l, r] = [left, this.not()];
      left = (s) => truthy(l(s)) && truthy(r(s));
    }
    return left;
  }

  private not(): Expr {
    if (this.peek() !== 'not') return this.comparison();
    this.take();
    const operand = this.not();
    return (s) => !truthy(operand(s));
  }

  private comparison(): Expr {
    const left = this.additive();
    const op = this.peek();
    if (op === 'is') {
      this.take();
      const negate = this.peek() === 'not' ? (this.take(), true) : false;
      const test = this.take();
      if (test !== 'defined' && test !== 'none') throw new TemplateError(`the test "is ${test}" is not supported`);
      return (s) => (test === 'defined' ? left(s) !== undefined : left(s) === null || left(s) === undefined) !== negate;
    }
    const negatedIn = op === 'not' && this.tokens[this.at + 1] === 'in';
    if (!['==', '!=', '<', '>', '<=', '>=', 'in'].includes(op ?? '') && !negatedIn) return left;
    if (negatedIn) this.take();
    this.take();
    const right = this.additive();
    const compare: Record<string, (a: Value, b: Value) => boolean> = {
      '==': (a, b) => a === b,
      '!=': (a, b) => a !== b,
      '<': (a, b) => (a as number) < (b as number),
      '>': (a, b) => (a as number) > (b as number),
      '<=': (a, b) => (a as number) <= (b as number),
      '>=': (a, b) => (a as number) >= (b as number),
      in: (a, b) => (typeof b === 'string' ? b.includes(String(a)) : Array.isArray(b) ? b.includes(a) : false),
    };
    const test = compare[op!]!;
    return (s) => test(left(s), right(s)) !== negatedIn;
  }

  private additive(): Expr {
    let left = this.postfix();
    while (this.peek() === '+' || this.peek() === '~' || this.peek() === '-') {
      const op = this.take();
      const [l, r] = [left, this.postfix()];
      left = (s) => {
        const [a, b] = [l(s), r(s)];
        if (op === '~') return `${String(a ?? '')}${String(b ?? '')}`;
        if (op === '-') return (a as number) - (b as number);
        return typeof a === 'number' && typeof b === 'number' ? a + b : `${String(a ?? '')}${String(b ?? '')}`;
      };
    }
    return left;
  }

  private postfix(): Expr {
    let value = this.primary();
    for (;;) {
      const next = this.peek();
      if (next === '.') {
        this.take();
        const key = this.take();
        const target = value;
        value = (s) => (target(s) as Record<string, Value> | undefined)?.[key];
      } else if (next === '[') {
        this.take();
        const index = this.or();
        this.take(']');
        const target = value;
        value = (s) => {
          const container = target(s) as Record<string, Value> | Value[] | undefined;
          const key = index(s) as string | number;
          return Array.isArray(container) && typeof key === 'number' && key < 0
            ? container[container.length + key]
            : (container as Record<string, Value>)?.[key];
        };
      } else if (next === '|') {
        this.take();
        const filter = this.take();
        const target = value;
        if (filter === 'trim') value = (s) => String(target(s) ?? '').trim();
        else if (filter === 'length') value = (s) => (target(s) as { length: number }).length;
        else throw new TemplateError(`the filter "${filter}" is not supported`);
      } else return value;
    }
  }

  private primary(): Expr {
    const token = this.take();
    if (token.startsWith("'") || token.startsWith('"')) {
      const text = unescape(token);
      return () => text;
    }
    if (/^\d+$/.test(token)) return () => Number(token);
    if (token === '(') {
      const inner = this.or();
      this.take(')');
      return inner;
    }
    if (token === '-') {
      const operand = this.postfix();
      return (s) => -(operand(s) as number);
    }
    if (token === 'true' || token === 'True') return () => true;
    if (token === 'false' || token === 'False') return () => false;
    if (token === 'none' || token === 'None') return () => null;
    if (token === 'raise_exception') {
      this.take('(');
      const message = this.or();
      this.take(')');
      return (s) => {
        throw new TemplateError(String(message(s)));
      };
    }
    if (!/^[A-Za-z_]/.test(token)) throw new TemplateError(`unexpected "${token}"`);
    return (s) => s.get(token);
  }
}

const TAG = /\{\{-?([\s\S]*?)-?\}\}|\{%-?([\s\S]*?)-?%\}|\{#[\s\S]*?#\}/g;

function parseTemplate(source: string): Node[] {
  const root: Node[] = [];
  const stack: { node?: Node; body: Node[]; open: string }[] = [{ body: root, open: 'template' }];
  let last = 0;
  let trimNext = false;
  for (const match of source.matchAll(TAG)) {
    let text = source.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (match[0].startsWith('{{-') || match[0].startsWith('{%-')) text = text.replace(/\s+$/, '');
    trimNext = match[0].endsWith('-}}') || match[0].endsWith('-%}');
    last = match.index + match[0].length;
    const top = stack[stack.length - 1]!;
    if (text) top.body.push({ kind: 'text', text });
    if (match[1] !== undefined) top.body.push({ kind: 'output', expr: Expression.parse(match[1]) });
    if (match[2] === undefined) continue;
    const [keyword = '', ...rest] = match[2].trim().split(/\s+/);
    const tail = match[2].trim().slice(keyword.length);
    if (keyword === 'for') {
      const [, name, iterable] = /^\s*(\w+)\s+in\s+([\s\S]+)$/.exec(tail) ?? [];
      if (!name || !iterable) throw new TemplateError(`cannot read "{% for${tail} %}"`);
      const node: Node = { kind: 'for', name, iterable: Expression.parse(iterable), body: [] };
      top.body.push(node);
      stack.push({ node, body: node.body, open: 'for' });
    } else if (keyword === 'if') {
      const node: Node = { kind: 'if', branches: [{ test: Expression.parse(tail), body: [] }] };
      top.body.push(node);
      stack.push({ node, body: node.branches[0]!.body, open: 'if' });
    } else if (keyword === 'elif' || keyword === 'else') {
      if (top.open !== 'if' || top.node?.kind !== 'if') throw new TemplateError(`{% ${keyword} %} outside an if`);
      const branch = { test: keyword === 'elif' ? Expression.parse(tail) : undefined, body: [] as Node[] };
      top.node.branches.push(branch);
      top.body = branch.body;
    } else if (keyword === 'endfor' || keyword === 'endif') {
      if (top.open !== keyword.slice(3)) throw new TemplateError(`{% ${keyword} %} does not close {% ${top.open} %}`);
      stack.pop();
    } else if (keyword === 'set') {
      const [, name, value] = /^\s*(\w+)\s*=\s*([\s\S]+)$/.exec(tail) ?? [];
      if (!name || !value) throw new TemplateError(`cannot read "{% set${tail} %}"`);
      top.body.push({ kind: 'set', name, value: Expression.parse(value) });
    } else throw new TemplateError(`the tag "{% ${keyword} ${rest.join(' ')} %}" is not supported`);
  }
  if (stack.length > 1) throw new TemplateError(`{% ${stack[stack.length - 1]!.open} %} is never closed`);
  let text = source.slice(last);
  if (trimNext) text = text.replace(/^\s+/, '');
  if (text) root.push({ kind: 'text', text });
  return root;
}

function render(nodes: Node[], scope: Scope): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'output') out += String(node.expr(scope) ?? '');
    else if (node.kind === 'set') scope.set(node.name, node.value(scope));
    else if (node.kind === 'if') {
      const branch = node.branches.find((b) => !b.test || truthy(b.test(scope)));
      if (branch) out += render(branch.body, scope);
    } else {
      const items = node.iterable(scope);
      if (!Array.isArray(items)) throw new TemplateError(`"for ${node.name}" needs a list`);
      for (const [index, item] of items.entries()) {
        const inner = new Map(scope);
        inner.set(node.name, item);
        inner.set('loop', { index: index + 1, index0: index, first: index === 0, last: index === items.length - 1, length: items.length });
        out += render(node.body, inner);
      }
    }
  }
  return out;
}

export type ChatRender = ((
  messages: readonly ChatMessage[],
  options?: { addGenerationPrompt?: boolean; bosToken?: string; eosToken?: string },
) => string) & {
  /** How the conversation is written: by the template itself, or by the family it was recognised as. */
  format: ChatFormat;
};

/**
 * A compiled chat template: parse once, render per conversation. A template the subset cannot
 * read is rendered as the family its markers name (ChatML, Llama 3, Gemma, Mistral, Phi-3) and
 * refused only when it names none; no template at all gives the plain text (`format: 'plain'`).
 */
export function compileChatTemplate(source: string): ChatRender {
  const family = recogniseFormat(source);
  let nodes: Node[] | undefined;
  if (family !== 'plain')
    try {
      nodes = parseTemplate(source);
    } catch (error) {
      if (!family) throw error;
    }
  const chat = (
    messages: readonly ChatMessage[],
    options: { addGenerationPrompt?: boolean; bosToken?: string; eosToken?: string } = {},
  ) => {
    const { addGenerationPrompt = true, bosToken = '', eosToken = '' } = options;
    if (!nodes) return renderFormat(family!, messages, { addGenerationPrompt, bosToken, eosToken });
    return render(
      nodes,
      new Map<string, Value>([
        ['messages', messages],
        ['add_generation_prompt', addGenerationPrompt],
        ['bos_token', bosToken],
        ['eos_token', eosToken],
      ]),
    );
  };
  return Object.assign(chat, { format: nodes ? ('jinja' as const) : family! });
}
