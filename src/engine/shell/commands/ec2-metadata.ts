/**
 * `ec2-metadata` (amazon-ec2-utils, on Amazon Linux 2023): the instance's metadata as IMDS gives it,
 * one `name: value` line per option in the order asked (all of them without an option);
 * `not available` for what the lab's instances do not have; usage and exit codes as the script's.
 * Values come from instance-identity.ts, the facts `aws ec2 describe-instances` prints. The answer
 * is computed at once, not carried over IMDS packets (docs/design.md, "ec2-metadata and IMDS").
 *
 * Source: aws/amazon-ec2-utils `ec2-metadata` (print_help, print_all, the option cases); the header
 * is v0.1.5's (AL2023); newer options the script's list does not show are not modelled.
 */
import type { Instance, Lab } from '../../lab/lab';
import { vpcState } from '../../vpc/state';
import { type CommandOutcome, done } from '../types';
import { type InstanceIdentity, instanceIdentity, ROOT_DEVICE_NAME } from './instance-identity';

export const EC2_METADATA_HELP = `ec2-metadata v0.1.5
Use to retrieve EC2 instance metadata from within a running EC2 instance. 
e.g. to retrieve instance id: ec2-metadata -i
\t\t to retrieve ami id: ec2-metadata -a
\t\t to get help: ec2-metadata --help
For more information on Amazon EC2 instance meta-data, refer to the documentation at
https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-instance-metadata.html

Usage: ec2-metadata <option>
Options:
--all                     Show all metadata information for this host (also default).
-a/--ami-id               The AMI ID used to launch this instance
-l/--ami-launch-index     The index of this instance in the reservation (per AMI).
-m/--ami-manifest-path    The manifest path of the AMI with which the instance was launched.
-n/--ancestor-ami-ids     The AMI IDs of any instances that were rebundled to create this AMI.
-b/--block-device-mapping Defines native device names to use when exposing virtual devices.
-i/--instance-id          The ID of this instance
-t/--instance-type        The type of instance to launch. For more information, see Instance Types.
-h/--local-hostname       The local hostname of the instance.
-o/--local-ipv4           Public IP address if launched with direct addressing; private IP address if launched with public addressing.
-k/--kernel-id            The ID of the kernel launched with this instance, if applicable.
-z/--availability-zone    The availability zone in which the instance launched. Same as placement
-c/--product-codes        Product codes associated with this instance.
-p/--public-hostname      The public hostname of the instance.
-v/--public-ipv4          NATted public IP Address
-u/--public-keys          Public keys. Only available if supplied at instance launch time
-r/--ramdisk-id           The ID of the RAM disk launched with this instance, if applicable.
-e/--reservation-id       ID of the reservation.
-s/--security-groups      Names of the security groups the instance is launched in. Only available if supplied at instance launch time
-d/--user-data            User-supplied data.Only available if supplied at instance launch time.
`;

const NA = 'not available';

/** One option: its short and long form and the lines it prints. */
interface Field {
  short: string;
  long: string;
  lines: (id: InstanceIdentity) => string;
}

const line = (label: string, value: (id: InstanceIdentity) => string) => (id: InstanceIdentity) =>
  `${label}: ${value(id)}\n`;

/** In print_all's order. */
const FIELDS: readonly Field[] = [
  { short: '-a', long: '--ami-id', lines: line('ami-id', (id) => id.imageId) },
  {
    short: '-l',
    long: '--ami-launch-index',
    lines: line('ami-launch-index', (id) => String(id.amiLaunchIndex)),
  },
  // what IMDS returns for an EBS-backed AMI
  { short: '-m', long: '--ami-manifest-path', lines: line('ami-manifest-path', () => '(unknown)') },
  { short: '-n', long: '--ancestor-ami-ids', lines: line('ancestor-ami-ids', () => NA) },
  {
    short: '-b',
    long: '--block-device-mapping',
    lines: () => `block-device-mapping: \n\t ami: ${ROOT_DEVICE_NAME}\n\t root: ${ROOT_DEVICE_NAME}\n`,
  },
  { short: '-i', long: '--instance-id', lines: line('instance-id', (id) => id.instanceId) },
  { short: '-t', long: '--instance-type', lines: line('instance-type', (id) => id.instanceType) },
  { short: '-h', long: '--local-hostname', lines: line('local-hostname', (id) => id.privateDnsName) },
  { short: '-o', long: '--local-ipv4', lines: line('local-ipv4', (id) => id.privateIp) },
  { short: '-k', long: '--kernel-id', lines: line('kernel-id', () => NA) },
  { short: '-z', long: '--availability-zone', lines: line('placement', (id) => id.availabilityZone) },
  { short: '-c', long: '--product-codes', lines: line('product-codes', () => NA) },
  { short: '-p', long: '--public-hostname', lines: line('public-hostname', () => NA) },
  { short: '-v', long: '--public-ipv4', lines: line('public-ipv4', () => NA) },
  { short: '-u', long: '--public-keys', lines: () => `public-keys: \n${NA}\n` },
  { short: '-r', long: '--ramdisk-id', lines: line('ramdisk-id', () => NA) },
  { short: '-e', long: '--reservation-id', lines: line('reservation-id', (id) => id.reservationId) },
  {
    short: '-s',
    long: '--security-groups',
    // IMDS lists the names one a line; the script's unquoted `echo $RESPONSE` joins them with spaces
    lines: line('security-groups', (id) => id.securityGroups.map((g) => g.GroupName).join(' ')),
  },
  { short: '-d', long: '--user-data', lines: line('user-data', () => NA) },
];

export function runEc2Metadata(args: string[], lab: Lab, host: Instance): CommandOutcome {
  const state = vpcState(lab);
  const eni = state.eniOfInstance(host.name);
  if (!eni) return done('', 1, undefined, `ec2-metadata: ${host.name} has no network interface\n`);
  const id = instanceIdentity(lab, state, eni);
  const all = () => FIELDS.map((f) => f.lines(id)).join('');
  if (args.length === 0) return done(all());
  let out = '';
  for (const a of args) {
    if (a === '--help') return done(out + EC2_METADATA_HELP);
    if (a === '--all') return done(out + all());
    const f = FIELDS.find((x) => x.short === a || x.long === a);
    if (!f) return done(out + EC2_METADATA_HELP, 1);
    out += f.lines(id);
  }
  return done(out);
}
