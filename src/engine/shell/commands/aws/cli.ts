/**
 * The AWS CLI v2's own layer, shared by every service the lab answers (ec2.ts, cloudwatch.ts): the
 * parameters of one operation as argparse reads them (`--name value`, `--name=value`, lists,
 * flags), the shorthand syntax and JSON values of structure arguments, botocore's type checks, and
 * the CLI's error output and return codes (usage 252, service error 254).
 * Sources: awscli clidriver.py (USAGE, argparse errors), shorthand.py, botocore validate.py; the
 * AWS CLI User Guide "Command line return codes".
 */
import { type CommandOutcome, fail } from '../../types';

/** A service error (`An error occurred (Code) when calling the Operation operation: …`, exit 254). */
export class ServiceError {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}
export const svc = (code: string, message: string) => new ServiceError(code, message);
/** Throw a service error (callOperation prints it). */
export function raise(code: string, message: string): never {
  throw svc(code, message);
}

/** An error the CLI prints before calling the service (botocore's parameter validation, exit 252). */
export class PlainError {
  constructor(readonly message: string) {}
}

/** argparse's error: the usage text, then `aws: error: …`. */
export const usage = (message: string): CommandOutcome =>
  fail(`\n${AWS_USAGE}\naws: error: ${message}\n\n`, AWS_EXIT.usage);
/** A message the CLI prints between blank lines (parameter validation, shorthand errors). */
export const plain = (message: string): CommandOutcome => fail(`\n${message}\n`, AWS_EXIT.usage);

/** Run one operation: a thrown ServiceError or PlainError becomes the CLI's error output. */
export function callOperation(opName: string, run: () => CommandOutcome): CommandOutcome {
  try {
    return run();
  } catch (e) {
    if (e instanceof ServiceError)
      return fail(
        `\nAn error occurred (${e.code}) when calling the ${opName} operation: ${e.message}\n`,
        AWS_EXIT.service,
      );
    if (e instanceof PlainError) return plain(e.message);
    throw e;
  }
}

/** parseOperationArgs, with its errors as the CLI prints them. */
export function parseArgs(
  args: readonly string[],
  specs: Readonly<Record<string, ParamSpec>>,
  requiredGroups: readonly string[][] = [],
): ParsedArgs | CommandOutcome {
  const r = parseOperationArgs(args, specs, requiredGroups);
  if ('kind' in r)
    return r.kind === 'usage'
      ? usage(r.message)
      : r.kind === 'raw'
        ? fail(r.message, AWS_EXIT.usage)
        : plain(r.message);
  return r;
}
export const isOut = (x: ParsedArgs | CommandOutcome): x is CommandOutcome => !('values' in x);

/**
 * awscli clidriver USAGE + HELP_BLURB, as printed before argparse errors. The error handlers
 * (errorhandler.py: ParamValidationErrorsHandler, UnknownArgumentErrorHandler) write a blank line
 * before the usage and one after the message.
 */
export const AWS_USAGE =
  'usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\n' +
  'To see help text, you can run:\n\n' +
  '  aws help\n' +
  '  aws <command> help\n' +
  '  aws <command> <subcommand> help\n';

/** AWS CLI v2 return codes (User Guide "Command line return codes"). */
export const AWS_EXIT = { usage: 252, service: 254 } as const;

export type ParamKind = 'string' | 'int' | 'list' | 'flag' | 'struct' | 'struct-list';

export interface ParamSpec {
  kind: ParamKind;
  required?: boolean;
  /** For flags: the name of the opposite flag (`--egress` / `--ingress`, `--dry-run` / `--no-dry-run`). */
  negates?: string;
}

export type ShorthandValue = string | ShorthandValue[] | { [k: string]: ShorthandValue };

export type ParsedValue = string | string[] | boolean | unknown;

export interface ParsedArgs {
  values: Map<string, ParsedValue>;
}

export type ArgError =
  | { kind: 'usage'; message: string }
  | { kind: 'plain'; message: string }
  | { kind: 'raw'; message: string };

/**
 * Parse the parameters of one operation. `specs` maps `--name` (without dashes) to its kind.
 * Returns the usage error argparse would print for unknown or incomplete options.
 */
export function parseOperationArgs(
  args: readonly string[],
  specs: Readonly<Record<string, ParamSpec>>,
  requiredGroups: readonly string[][] = [],
): ParsedArgs | ArgError {
  const values = new Map<string, ParsedValue>();
  const unknown: string[] = [];
  let i = 0;
  while (i < args.length) {
    const tok = args[i]!;
    if (!tok.startsWith('--')) {
      unknown.push(tok);
      i++;
      continue;
    }
    const eq = tok.indexOf('=');
    const name = eq >= 0 ? tok.slice(2, eq) : tok.slice(2);
    const inline = eq >= 0 ? tok.slice(eq + 1) : undefined;
    const spec = specs[name];
    if (!spec) {
      unknown.push(tok);
      i++;
      while (i < args.length && !args[i]!.startsWith('--')) unknown.push(args[i++]!);
      continue;
    }
    i++;
    if (spec.kind === 'flag') {
      if (inline !== undefined)
        return { kind: 'usage', message: `argument --${name}: ignored explicit argument '${inline}'` };
      values.set(name, true);
      if (spec.negates) values.delete(spec.negates);
      continue;
    }
    const taken: string[] = [];
    if (inline !== undefined) taken.push(inline);
    const many = spec.kind === 'list' || spec.kind === 'struct-list';
    while (i < args.length && !args[i]!.startsWith('--') && (many || taken.length === 0))
      taken.push(args[i++]!);
    if (taken.length === 0)
      return {
        kind: 'usage',
        message: `argument --${name}: expected ${many ? 'at least one argument' : 'one argument'}`,
      };
    if (spec.kind === 'int') {
      if (!/^-?\d+$/.test(taken[0]!))
        return {
          kind: 'plain',
          message: `Parameter validation failed:\nInvalid type for parameter ${pascal(name)}, value: ${taken[0]}, type: <class 'str'>, valid types: <class 'int'>`,
        };
      values.set(name, Number(taken[0]));
    } else if (spec.kind === 'string') values.set(name, taken[0]!);
    else if (spec.kind === 'list') values.set(name, taken);
    else if (spec.kind === 'struct') {
      const v = parseStructArg(name, taken[0]!);
      if ('error' in v) return { kind: 'plain', message: v.error };
      values.set(name, v.value);
    } else {
      const items: unknown[] = [];
      for (const t of taken) {
        const v = parseStructArg(name, t);
        if ('error' in v) return { kind: 'plain', message: v.error };
        if (Array.isArray(v.value)) items.push(...v.value);
        else items.push(v.value);
      }
      values.set(name, items);
    }
  }
  if (unknown.length > 0)
    return { kind: 'raw', message: `\n${AWS_USAGE}\nUnknown options: ${unknown.join(', ')}\n\n` };
  const missing = Object.entries(specs)
    .filter(([n, s]) => s.required && !values.has(n))
    .map(([n]) => `--${n}`);
  for (const group of requiredGroups) {
    if (!group.some((n) => values.has(n))) missing.push(group.map((n) => `--${n}`).join(' | '));
  }
  if (missing.length > 0)
    return { kind: 'usage', message: `the following arguments are required: ${missing.join(', ')}` };
  return { values };
}

/** `group-id` → `GroupId` (the API member name the CLI derives the option from). */
export function pascal(name: string): string {
  return name
    .split('-')
    .map((w) => (w === 'ids' ? 'Ids' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}

/** A structure argument: JSON when it starts with `{` or `[`, else shorthand. */
export function parseStructArg(name: string, text: string): { value: unknown } | { error: string } {
  const t = text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return { value: JSON.parse(text) };
    } catch (e) {
      return {
        error: `Error parsing parameter '--${name}': Invalid JSON: ${(e as Error).message}\nJSON received: ${text}`,
      };
    }
  }
  const r = parseShorthand(text);
  if ('error' in r) return { error: `Error parsing parameter '--${name}': ${r.error}` };
  return { value: r.value };
}

/**
 * AWS CLI shorthand: `A=1,B={C=2,D=[x,y]},E=p,q` (a bare item after a comma extends the previous
 * key into a list, as in `Name=vpc-id,Values=a,b`).
 */
export function parseShorthand(text: string): { value: { [k: string]: ShorthandValue } } | { error: string } {
  let i = 0;
  const err = (expected: string): { error: string } => ({
    error: `Expected: '${expected}', received: '${i < text.length ? text[i] : 'EOF'}' for input:\n${text}\n${' '.repeat(i)}^`,
  });
  const parseScalar = (stops: string): string => {
    let s = '';
    while (i < text.length && !stops.includes(text[i]!)) s += text[i++];
    return s.trim();
  };
  const parseValue = (stops: string): ShorthandValue | { error: string } => {
    if (text[i] === '{') {
      i++;
      const v = parseStruct('}');
      if ('error' in v) return v;
      if (text[i] !== '}') return err('}');
      i++;
      return v.value;
    }
    if (text[i] === '[') {
      i++;
      const items: ShorthandValue[] = [];
      while (i < text.length && text[i] !== ']') {
        const v = parseValue(',]');
        if (
          typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          'error' in v &&
          typeof v.error === 'string'
        )
          return v as { error: string };
        items.push(v as ShorthandValue);
        if (text[i] === ',') i++;
      }
      if (text[i] !== ']') return err(']');
      i++;
      return items;
    }
    return parseScalar(stops);
  };
  const parseStruct = (close: string): { value: { [k: string]: ShorthandValue } } | { error: string } => {
    const out: { [k: string]: ShorthandValue } = {};
    let lastKey: string | null = null;
    while (i < text.length && text[i] !== close) {
      const start = i;
      const key = parseScalar(`=,${close}`);
      if (text[i] !== '=') {
        // a bare item: continues the previous key's list
        if (lastKey === null || key === '') {
          i = start + key.length;
          return err('=');
        }
        const prev = out[lastKey]!;
        out[lastKey] = Array.isArray(prev) ? [...prev, key] : [prev, key];
      } else {
        i++;
        const v = parseValue(`,${close}`);
        if (
          typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          'error' in v &&
          typeof v.error === 'string'
        )
          return v as { error: string };
        out[key] = v as ShorthandValue;
        lastKey = key;
      }
      if (text[i] === ',') i++;
    }
    return { value: out };
  };
  const r = parseStruct('\u0000');
  if ('error' in r) return r;
  if (i < text.length) return err('EOF');
  return r;
}

/** Shorthand values are strings; the API wants integers and booleans in some members. */
export function asInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

export function asBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return null;
}

/** botocore's message for a member of the wrong type. */
export function invalidType(path: string, v: unknown, valid: 'int' | 'bool'): string {
  const t =
    typeof v === 'string' ? "<class 'str'>" : typeof v === 'number' ? "<class 'int'>" : "<class 'dict'>";
  return `Parameter validation failed:\nInvalid type for parameter ${path}, value: ${typeof v === 'string' ? v : JSON.stringify(v)}, type: ${t}, valid types: <class '${valid}'>`;
}
