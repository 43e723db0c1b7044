/**
 * What every `aws ec2` operation shares: its handler's shape, the parameters with `--dry-run`, the
 * commit of a change to the VPC (checked whole first, so a failing command changes nothing), the
 * `--filters` matching (AND of filters, OR of values, `*` and `?` wildcards) and the malformed-id
 * error. Sources: the EC2 API reference (Filter, DryRun); moto ec2/exceptions.py for error texts.
 */
import { checkVpc, type Vpc } from '../../../../scenario/vpc';
import type { Lab } from '../../../lab/lab';
import type { Eni, MutationKind, VpcState } from '../../../vpc/state';
import type { CommandOutcome } from '../../types';
import { type ParamSpec, type ParsedArgs, parseArgs, type ServiceError, svc } from './cli';

/** One EC2 operation: its API name (for errors and logs) and what runs it. */
export interface Ec2Operation {
  api: string;
  run: Handler;
}
export type Handler = (args: string[], state: VpcState, lab: Lab, opName: string) => CommandOutcome;

const DRY_RUN: Record<string, ParamSpec> = {
  'dry-run': { kind: 'flag', negates: 'no-dry-run' },
  'no-dry-run': { kind: 'flag', negates: 'dry-run' },
};

/** The operation's parameters and `--dry-run` / `--no-dry-run`. */
export function parse(
  args: string[],
  specs: Record<string, ParamSpec>,
  groups: string[][] = [],
): ParsedArgs | CommandOutcome {
  return parseArgs(args, { ...specs, ...DRY_RUN }, groups);
}

export function dryRun(p: ParsedArgs): void {
  if (p.values.get('dry-run') === true)
    throw svc('DryRunOperation', 'Request would have succeeded, but DryRun flag is set.');
}

/** Apply a change to a copy, re-check the whole VPC, then commit and log it (or change nothing). */
export function commit(
  state: VpcState,
  next: Vpc,
  kind: MutationKind,
  resource: string,
  op: string,
  enis?: Eni[],
): void {
  const placed = (enis ?? state.enis).map((e) => ({
    name: e.instanceName,
    type: e.instanceType,
    ip: e.ip,
    secondaryIps: [...e.secondaryIps],
    subnet: e.subnetId,
    securityGroups: e.securityGroups,
    enaSrd: e.enaSrd,
    connectionTracking: e.connectionTracking,
  }));
  const issues = checkVpc(next, placed, state.client);
  if (issues.length > 0) throw svc('InvalidParameterValue', issues[0]!.message);
  const v = state.vpc as Vpc;
  v.Subnets = next.Subnets;
  v.RouteTables = next.RouteTables;
  v.InternetGateways = next.InternetGateways;
  v.NetworkAcls = next.NetworkAcls;
  v.SecurityGroups = next.SecurityGroups;
  if (enis) {
    enis.forEach((e, i) => {
      const cur = state.enis[i]!;
      cur.securityGroups = e.securityGroups;
      cur.enaSrd = e.enaSrd;
      cur.connectionTracking = e.connectionTracking;
    });
  }
  state.recordMutation(kind, resource, op);
}

interface Filter {
  name: string;
  values: string[];
}

export function readFilters(raw: unknown): Filter[] {
  if (raw === undefined) return [];
  const list = raw as Array<Record<string, unknown>>;
  return list.map((f) => {
    const v = f['Values'];
    const values = Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];
    return { name: String(f['Name'] ?? ''), values };
  });
}

const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** Every filter must match (AND); a filter matches when any of its values matches any candidate. */
export function applyFilters<T>(
  items: T[],
  filters: Filter[],
  fields: Record<string, (x: T) => string[]>,
): T[] {
  for (const f of filters) {
    if (!fields[f.name]) throw svc('InvalidParameterValue', `The filter '${f.name}' is invalid`);
  }
  return items.filter((x) =>
    filters.every((f) => {
      const cands = fields[f.name]!(x);
      return f.values.some((v) => cands.some((c) => wildcard(v).test(c)));
    }),
  );
}

/**
 * A plain Describe* request: `--<idsOption>` (each looked up by `find`, so an unknown one is that
 * resource's own error) or every resource, then `--filters` over `fields`; `--dry-run` checked.
 * The parser's own answer (a usage error) when the arguments do not parse.
 */
export function describeSelected<T>(
  args: string[],
  idsOption: string,
  all: T[],
  find: (id: string) => T,
  fields: Record<string, (x: T) => string[]>,
): T[] | CommandOutcome {
  const p = parse(args, { [idsOption]: { kind: 'list' }, filters: { kind: 'struct-list' } });
  if (!('values' in p)) return p;
  dryRun(p);
  const ids = p.values.get(idsOption) as string[] | undefined;
  return applyFilters(ids ? ids.map(find) : all, readFilters(p.values.get('filters')), fields);
}

export function malformed(prefix: string, id: string, code: string): ServiceError {
  return svc(code, `Invalid id: "${id}" (expecting "${prefix}-...")`);
}
