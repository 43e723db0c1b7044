/**
 * The scenario: everything a lab run is built from (instances, placement, the VPC, settings,
 * parameter overrides, the command script, the terminal session, the seed). Plain data with a
 * versioned schema (`version`; migrations.ts lifts older documents); the CLI reads it from a file,
 * the URL codec carries it, the engine builds from it. What a document leaves out is filled in
 * deterministically from the seed, so a parsed Scenario always carries a complete VPC.
 * `script` is the plain list of lines the CLI runs; `session` is what was typed in the terminal with
 * the simulated instant of each line (and Ctrl-C), so a shared link replays the run exactly.
 * Errors name the field path (`instances[0].type: …`) so a user can fix the file.
 */
import { z } from 'zod';
import { getInstanceType, suggestInstanceType } from '../catalog';
import { MODEL_PARAMS, type ParamName, paramRangeError } from '../engine/model/params';
import { LAB_EPOCH_ISO, parseIso8601 } from '../lib/time';
import { migrate } from './migrations';
import {
  type ConnectionTrackingSpecification,
  ConnectionTrackingSpecificationSchema,
  checkVpc,
  completeVpc,
  defaultVpc,
  type EnaSrdSpecification,
  EnaSrdSpecificationSchema,
  formatIpv4,
  formatPath,
  isResourceId,
  parseCidr,
  resourceId,
  type Vpc,
  VpcSchema,
} from './vpc';

export const SCENARIO_VERSION = 5;
/** Versions parseScenario opens (older ones are migrated). */
export const KNOWN_SCENARIO_VERSIONS = [1, 2, 3, 4, 5] as const;
/** Latest simulated instant a session entry may carry (one day, as for a link's time). */
export const MAX_SESSION_NS = 86_400e9;

/**
 * Where the server is from the client: in a cluster placement group, in the same AZ, across AZs, on
 * the internet, or in another VPC of the Region reached at its public address through both VPCs'
 * internet gateways ('other-vpc': no peering, the path the SRIOV seed's MTU note shows; docs/design.md,
 * "Two VPCs through their internet gateways").
 */
export const PLACEMENTS = ['cluster', 'same-az', 'cross-az', 'internet', 'other-vpc'] as const;
export type Placement = (typeof PLACEMENTS)[number];

const hostName = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,30}$/,
    'must be lowercase letters, digits or "-", starting with a letter (max 31)',
  );

const instanceType = z.string().superRefine((name, ctx) => {
  if (!getInstanceType(name)) {
    const s = suggestInstanceType(name);
    ctx.addIssue({
      code: 'custom',
      message: `unknown instance type "${name}"${s.length ? ` (did you mean ${s.join(', ')}?)` : ''}`,
    });
  }
});

const ipv4 = z
  .string()
  .regex(
    /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
    'must be an IPv4 address like 10.0.0.10',
  );

const idOf = (prefix: string) =>
  z.string().refine((s) => isResourceId(prefix, s), {
    message: `must be an ID like ${prefix}-0123456789abcdef0 ("${prefix}-" and 8 or 17 hex digits)`,
  });

/** v5: a secondary network interface attached to an instance at launch (eth1 …). */
export const NetworkInterfaceSchema = z.strictObject({
  /** Attachment.DeviceIndex: 1 … (0 is the instance's own interface); the host names it eth<index>. */
  deviceIndex: z.number().int().min(1, 'device index 0 is the primary interface').max(31),
  /** Primary private address. Default: the subnet's first free address from base + 10. */
  ip: ipv4.optional(),
  secondaryIps: z.array(ipv4).max(49, 'at most 49 secondary addresses').optional(),
  /** Default: the instance's subnet (an interface must be in the instance's AZ). */
  subnet: idOf('subnet').optional(),
  /** Default: the group named "default". */
  securityGroups: z.array(z.string()).optional(),
  /** Default: derived from the seed, the instance and the device index. */
  eniId: idOf('eni').optional(),
  description: z.string().max(255).optional(),
  /** SourceDestCheck of the interface (default true). */
  sourceDestCheck: z.boolean().optional(),
});

export const InstanceSchema = z.strictObject({
  name: hostName,
  type: instanceType,
  /** Primary private IPv4 address. Default: the subnet's base + 10 + the instance's index (10.0.0.10, .11 …). */
  ip: ipv4.optional(),
  /** v2: secondary private IPv4 addresses of the (single) network interface. */
  secondaryIps: z.array(ipv4).max(49, 'at most 49 secondary addresses').optional(),
  /** v2: SubnetId. Default: the VPC's first subnet. */
  subnet: idOf('subnet').optional(),
  /** v2: GroupIds of the network interface. Default: the group named "default" (else the first group). */
  securityGroups: z.array(z.string()).optional(),
  /** v2: ENA Express on the network interface (ModifyNetworkInterfaceAttribute EnaSrdSpecification). */
  enaSrd: EnaSrdSpecificationSchema.optional(),
  /** v2: conntrack idle timeouts of the network interface; unset fields take the type's defaults. */
  connectionTracking: ConnectionTrackingSpecificationSchema.optional(),
  /** v2: IDs; default derived from the seed and the instance name. */
  instanceId: idOf('i').optional(),
  eniId: idOf('eni').optional(),
  /**
   * Enhanced networking at launch (the AMI's EnaSupport / SriovNetSupport): on by default where the
   * type offers it. Off runs a Xen type on the PV network device (driver vif); a Nitro type
   * requires ENA and a T2 has none, so only Xen types with ENA or the 82599 VF accept false.
   */
  enhancedNetworking: z.boolean().optional(),
  /** v5: secondary network interfaces attached at launch (eth1 …), within the type's maximum. */
  networkInterfaces: z.array(NetworkInterfaceSchema).max(31).optional(),
  /** v5: SourceDestCheck of the primary interface (false: the instance may forward, a router). */
  sourceDestCheck: z.boolean().optional(),
});

/** The outside client "on the internet" (v2), reaching the VPC through the internet gateway. */
export const ClientSchema = z.strictObject({
  name: hostName.default('internet-client'),
  ip: ipv4.default('203.0.113.1'),
});

// own keys only: `k in MODEL_PARAMS` would accept "toString", "constructor", … from Object.prototype
const paramName = z
  .string()
  .refine((k) => Object.hasOwn(MODEL_PARAMS, k), { message: 'unknown model parameter' });

export const SettingsSchema = z.strictObject({
  /**
   * Packets per batch. 1 = per-packet (every wire packet is an event); "auto" = batches of up
   * to 64 identical packets where rates are high (results agree within the golden tolerances).
   */
  batch: z.union([z.literal('auto'), z.number().int().min(1).max(256)]).default('auto'),
  /** Default qdisc (net.core.default_qdisc): fq_codel on systemd distributions such as Amazon Linux 2023. */
  defaultQdisc: z.enum(['fq_codel', 'pfifo_fast']).default('fq_codel'),
  /** Whether each instance starts with `iperf3 -s` listening on 5201 (as in the NET402 tests). */
  iperf3Server: z.boolean().default(true),
  /**
   * v3: the wall clock at simulated time 0 (ISO 8601, UTC or with an offset, whole seconds). It
   * dates tools' output and aligns CloudWatch datapoints to clock minutes (a burst can straddle two).
   */
  wallClockStart: z
    .string()
    .refine((v) => parseIso8601(v) !== null, {
      message: 'must be an ISO 8601 date and time with whole seconds, e.g. 2024-12-02T17:00:00Z',
    })
    .default(LAB_EPOCH_ISO),
  /** v3: CloudWatch monitoring of the instances: basic (5-minute datapoints) or detailed (1-minute). */
  monitoring: z.enum(['basic', 'detailed']).default('basic'),
  /**
   * v3: run the full metrics recorder (1 ms and 10 µs series, queue maxima, drops, latency) that
   * `lab summary` reads; the UI turns it on by itself. Off costs nothing; on costs CPU.
   */
  record: z.boolean().default(false),
  /**
   * Whose figures the instance types take: today's AWS API ("current", the default) or "aws-2018",
   * the bandwidths NETFLIX18 measured in 2018 (catalog profile-2018.ts) where its table has a cell.
   */
  profile: z.enum(['current', 'aws-2018']).optional(),
});

/** The settings a document that leaves them out gets. */
export const DEFAULT_SETTINGS = {
  batch: 'auto',
  defaultQdisc: 'fq_codel',
  iperf3Server: true,
  wallClockStart: LAB_EPOCH_ISO,
  monitoring: 'basic',
  record: false,
} as const;

const sessionTime = z
  .number()
  .int('must be whole nanoseconds')
  .min(0, 'must be ≥ 0')
  .max(MAX_SESSION_NS, `must be at most ${MAX_SESSION_NS / 1e9} s`);

/** v4: one thing typed in the terminal at a simulated instant: a line, or Ctrl-C. */
export const SessionEntrySchema = z.union([
  z.strictObject({ atNs: sessionTime, line: z.string().max(4096, 'command longer than 4096 characters') }),
  z.strictObject({ atNs: sessionTime, interrupt: z.literal(true) }),
]);
export type SessionEntry = z.output<typeof SessionEntrySchema>;

export const ScenarioSchema = z
  .strictObject({
    version: z.literal(SCENARIO_VERSION),
    seed: z.number().int().min(0).max(0xffffffff).default(1),
    placement: z.enum(PLACEMENTS).default('cluster'),
    instances: z
      .array(InstanceSchema)
      .min(1, 'needs at least one instance')
      .max(64, 'at most 64 instances')
      .default([
        { name: 'client', type: 'c7i.large' },
        { name: 'server', type: 'c7i.large' },
      ]),
    settings: SettingsSchema.default({ ...DEFAULT_SETTINGS }),
    params: z.record(paramName, z.number().finite().nonnegative()).default({}),
    script: z.array(z.string().max(4096, 'command longer than 4096 characters')).max(10_000).default([]),
    /** v2: the VPC. Default: defaultVpc(seed), the talk's picture. */
    vpc: VpcSchema.optional(),
    client: ClientSchema.optional(),
    /**
     * v4: the terminal session, in order: each line typed (or Ctrl-C) and the simulated instant it
     * was typed at. The lab replays it on a fresh build of the scenario; nothing runs unless the
     * lab is asked to replay it (a link is opened), and it runs only as shell input.
     */
    session: z.array(SessionEntrySchema).max(10_000, 'at most 10000 entries').optional(),
  })
  .superRefine((s, ctx) => {
    for (const [name, value] of Object.entries(s.params)) {
      const why = typeof value === 'number' ? paramRangeError(name as ParamName, value) : null;
      if (why) ctx.addIssue({ code: 'custom', path: ['params', name], message: why });
    }
    s.session?.forEach((e, i) => {
      const prev = i > 0 ? s.session![i - 1]!.atNs : 0;
      if (e.atNs < prev)
        ctx.addIssue({
          code: 'custom',
          path: ['session', i, 'atNs'],
          message: `earlier than the entry before it (${prev} ns); entries are in time order`,
        });
    });
    const seen = new Set<string>();
    s.instances.forEach((inst, i) => {
      if (seen.has(inst.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['instances', i, 'name'],
          message: `duplicate instance name "${inst.name}"`,
        });
      }
      seen.add(inst.name);
    });
  });

type ParsedDocument = z.output<typeof ScenarioSchema>;

/** An instance of a parsed scenario: every VPC field filled in. */
export interface ScenarioInstance {
  name: string;
  type: string;
  ip: string;
  secondaryIps: string[];
  subnet: string;
  securityGroups: string[];
  enaSrd: EnaSrdSpecification;
  connectionTracking: ConnectionTrackingSpecification;
  instanceId: string;
  eniId: string;
  /** Enhanced networking at launch (resolved: the type's default when the document leaves it out). */
  enhancedNetworking: boolean;
  /** v5: secondary interfaces attached at launch (every field resolved); absent when none. */
  networkInterfaces?: ScenarioNetworkInterface[];
  /** v5: the primary interface's source/destination check; absent = on. */
  sourceDestCheck?: boolean;
}

export interface ScenarioNetworkInterface {
  deviceIndex: number;
  ip: string;
  secondaryIps: string[];
  subnet: string;
  securityGroups: string[];
  eniId: string;
  description: string;
  sourceDestCheck: boolean;
}

export type Scenario = Omit<ParsedDocument, 'instances' | 'vpc' | 'client'> & {
  instances: ScenarioInstance[];
  vpc: Vpc;
  client?: { name: string; ip: string };
};
export type ScenarioInput = z.input<typeof ScenarioSchema>;

/** Format zod issues as `path: message` lines. */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = i.path
      .map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`))
      .join('');
    // a record key that fails its own check: say why ("unknown model parameter"), not just "Invalid key"
    const msg = i.code === 'invalid_key' && i.issues[0] ? i.issues[0].message : i.message;
    return `${path || '(root)'}: ${msg}`;
  });
}

/** Validate an untrusted document. Never throws. */
export function parseScenario(
  doc: unknown,
): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, errors: ['(root): a scenario must be a JSON object'] };
  }
  const v = (doc as { version?: unknown }).version;
  const known = KNOWN_SCENARIO_VERSIONS.join(', ');
  if (v === undefined) return { ok: false, errors: [`version: missing (this lab reads versions ${known})`] };
  if (!KNOWN_SCENARIO_VERSIONS.includes(v as 1 | 2 | 3 | 4 | 5)) {
    return {
      ok: false,
      errors: [`version: ${JSON.stringify(v)} is not a known scenario version (known: ${known})`],
    };
  }
  const m = migrate(doc as Record<string, unknown>, v as number, SCENARIO_VERSION);
  if (!m.ok) return m;
  const r = ScenarioSchema.safeParse(m.doc);
  // z.record silently drops an own "__proto__" key (JSON.parse makes one); say so instead
  const params = (doc as { params?: unknown }).params;
  const protoKey =
    typeof params === 'object' && params !== null && Object.hasOwn(params, '__proto__')
      ? ['params.__proto__: unknown model parameter']
      : [];
  if (!r.success) return { ok: false, errors: [...formatIssues(r.error), ...protoKey] };
  if (protoKey.length > 0) return { ok: false, errors: protoKey };
  return completeScenario(r.data);
}

/**
 * Why a launch with this enhanced-networking choice cannot happen (null: it can). A Nitro type
 * cannot launch without ENA (RunInstances: "Enhanced networking with the Elastic Network Adapter
 * (ENA) is required for the '<type>' instance type"); a type without enhanced networking (T2) has
 * nothing to turn on.
 */
function enhancedNetworkingRefusal(type: string, on: boolean | undefined): string | null {
  const spec = getInstanceType(type);
  if (spec === undefined || on === undefined) return null;
  if (!on && spec.hypervisor.value === 'nitro')
    return `Enhanced networking with the Elastic Network Adapter (ENA) is required for the '${type}' instance type`;
  if (on && spec.enhancedNetworking.value === 'none')
    return `the '${type}' instance type supports no enhanced networking (neither ENA nor the Intel 82599 VF)`;
  return null;
}

/** Fill the seed-derived defaults of a validated document and run the whole-VPC checks. */
function completeScenario(
  d: ParsedDocument,
): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const vpc = completeVpc(d.vpc ?? defaultVpc(d.seed));
  const firstSubnet = vpc.Subnets[0]!;
  const defaultGroup = vpc.SecurityGroups.find((g) => g.GroupName === 'default') ?? vpc.SecurityGroups[0]!;
  const instances: ScenarioInstance[] = d.instances.map((inst, i) => {
    const subnetId = inst.subnet ?? firstSubnet.SubnetId;
    const subnet = vpc.Subnets.find((s) => s.SubnetId === subnetId) ?? firstSubnet;
    const base = parseCidr(subnet.CidrBlock)?.network ?? 0;
    return {
      name: inst.name,
      type: inst.type,
      ip: inst.ip ?? formatIpv4(base + 10 + i),
      secondaryIps: inst.secondaryIps ?? [],
      subnet: subnetId,
      securityGroups: inst.securityGroups ?? [defaultGroup.GroupId],
      enaSrd: inst.enaSrd ?? { EnaSrdEnabled: false, EnaSrdUdpSpecification: { EnaSrdUdpEnabled: false } },
      connectionTracking: inst.connectionTracking ?? {},
      instanceId: inst.instanceId ?? resourceId('i', d.seed, `instance/${inst.name}`),
      eniId: inst.eniId ?? resourceId('eni', d.seed, `eni/${inst.name}`),
      enhancedNetworking:
        inst.enhancedNetworking ?? getInstanceType(inst.type)?.enhancedNetworking.value !== 'none',
      ...(inst.sourceDestCheck === false ? { sourceDestCheck: false } : {}),
    };
  });
  // secondary interfaces: addresses default to the subnet's first free ones after every instance's
  const taken = new Set(instances.flatMap((x) => [x.ip, ...x.secondaryIps]));
  const errors0: string[] = [];
  for (const inst of d.instances)
    for (const n of inst.networkInterfaces ?? [])
      for (const ip of [n.ip, ...(n.secondaryIps ?? [])]) if (ip) taken.add(ip);
  d.instances.forEach((inst, i) => {
    const seenIdx = new Set<number>();
    for (const [k, n] of (inst.networkInterfaces ?? []).entries()) {
      const path = `instances[${i}].networkInterfaces[${k}]`;
      if (seenIdx.has(n.deviceIndex))
        errors0.push(`${path}.deviceIndex: device index ${n.deviceIndex} is used twice`);
      seenIdx.add(n.deviceIndex);
      const subnetId = n.subnet ?? instances[i]!.subnet;
      instances[i]!.networkInterfaces ??= [];
      const subnet = vpc.Subnets.find((x) => x.SubnetId === subnetId);
      if (!subnet) {
        errors0.push(`${path}.subnet: unknown subnet "${subnetId}"`);
        continue;
      }
      const own = vpc.Subnets.find((x) => x.SubnetId === instances[i]!.subnet);
      if (own && subnet.AvailabilityZone !== own.AvailabilityZone)
        errors0.push(
          `${path}.subnet: ${subnetId} is not in the instance's availability zone (${own.AvailabilityZone})`,
        );
      let ip = n.ip;
      if (ip === undefined) {
        const c = parseCidr(subnet.CidrBlock);
        for (let o = 10; c && o < 2 ** (32 - c.prefix) - 1; o++)
          if (!taken.has(formatIpv4(c.network + o))) {
            ip = formatIpv4(c.network + o);
            break;
          }
        if (ip === undefined) {
          errors0.push(`${path}.ip: no free address in ${subnetId}`);
          continue;
        }
        taken.add(ip);
      }
      instances[i]!.networkInterfaces!.push({
        deviceIndex: n.deviceIndex,
        ip,
        secondaryIps: n.secondaryIps ?? [],
        subnet: subnetId,
        securityGroups: n.securityGroups ?? [defaultGroup.GroupId],
        eniId: n.eniId ?? resourceId('eni', d.seed, `eni/${inst.name}/${n.deviceIndex}`),
        description: n.description ?? '',
        sourceDestCheck: n.sourceDestCheck ?? true,
      });
    }
    if ((inst.networkInterfaces?.length ?? 0) > 0 && getInstanceType(inst.type)?.hypervisor.value !== 'nitro')
      errors0.push(
        `instances[${i}].networkInterfaces: several network interfaces on a Xen instance (${inst.type}) are not simulated in ec2-netlab`,
      );
    const max = getInstanceType(inst.type)?.maxEnis.value ?? 1;
    const count = 1 + (inst.networkInterfaces?.length ?? 0);
    if (count > max)
      errors0.push(
        `instances[${i}].networkInterfaces: Interface count ${count} exceeds the limit for ${inst.type} (${max})`,
      );
  });
  // every interface is checked as a placed one (addresses in their subnet, unique, groups known);
  // the secondary interfaces after the instances, so an instance's issues keep its own path
  const extra = instances.flatMap((inst, i) =>
    (inst.networkInterfaces ?? []).map((n, k) => ({
      path: `instances[${i}].networkInterfaces[${k}]`,
      placed: {
        ...inst,
        ip: n.ip,
        secondaryIps: n.secondaryIps,
        subnet: n.subnet,
        securityGroups: n.securityGroups,
      },
    })),
  );
  const errors = [
    ...errors0,
    ...checkVpc(vpc, [...instances, ...extra.map((x) => x.placed)], d.client).map((issue) => {
      const j = issue.path[0] === 'instances' ? issue.path[1] : undefined;
      if (typeof j === 'number' && j >= instances.length) {
        const rest = formatPath(['x', ...issue.path.slice(2)]).slice(1);
        return `${extra[j - instances.length]!.path}${rest}: ${issue.message}`;
      }
      return `${formatPath(issue.path)}: ${issue.message}`;
    }),
  ];
  d.instances.forEach((inst, i) => {
    const why = enhancedNetworkingRefusal(inst.type, inst.enhancedNetworking);
    if (why !== null) errors.push(`instances[${i}].enhancedNetworking: ${why}`);
  });
  const eniIds = new Set(instances.flatMap((x) => (x.networkInterfaces ?? []).map((n) => n.eniId)));
  instances.forEach((inst, i) => {
    if (eniIds.has(inst.eniId)) errors.push(`instances[${i}].eniId: duplicate ID "${inst.eniId}"`);
  });
  for (const key of ['instanceId', 'eniId'] as const) {
    const seen = new Set<string>();
    instances.forEach((inst, i) => {
      if (seen.has(inst[key])) errors.push(`instances[${i}].${key}: duplicate ID "${inst[key]}"`);
      seen.add(inst[key]);
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  const { vpc: _v, client, instances: _i, ...rest } = d;
  const scenario: Scenario = { ...rest, instances, vpc };
  if (client) scenario.client = client;
  return { ok: true, scenario };
}

/** The default scenario: two c7i.large in a cluster placement group, as in NET402, in the talk's VPC. */
export function defaultScenario(): Scenario {
  const r = parseScenario({ version: SCENARIO_VERSION });
  if (!r.ok) throw new Error(`default scenario is invalid: ${r.errors.join('; ')}`);
  return r.scenario;
}
