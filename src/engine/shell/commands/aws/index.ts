/**
 * `aws`: the AWS CLI v2's driver on the lab: its global options (`--output json`, `--region`, the
 * pager flags; anything else refused as "not simulated"), `--version`, and the services the lab
 * answers: `aws ec2` (ec2.ts) and `aws cloudwatch` (cloudwatch.ts). Output: `--output json`,
 * indent 4, the CLI's key order; service errors exit 254, usage errors 252 (cli.ts).
 * Sources: awscli clidriver.py, utils write_exception; moto ec2/exceptions.py and public issue
 * threads for error texts (where AWS's text is not public the message is ours in AWS's shape).
 */
import type { Lab } from '../../../lab/lab';
import { type CommandOutcome, done, fail } from '../../types';
import { AWS_EXIT, usage } from './cli';
import { runCloudWatch } from './cloudwatch';
import { runEc2 } from './ec2';

export { AWS_CLOUDWATCH_OPERATIONS } from './cloudwatch';
export { AWS_EC2_OPERATIONS } from './ec2';

const LAB_REGION_NAME = 'us-east-1';

const GLOBAL_VALUE_OPTIONS = new Set([
  '--output',
  '--region',
  '--profile',
  '--query',
  '--endpoint-url',
  '--color',
  '--cli-read-timeout',
  '--cli-connect-timeout',
  '--ca-bundle',
]);
const GLOBAL_FLAGS = new Set([
  '--no-cli-pager',
  '--debug',
  '--no-verify-ssl',
  '--no-paginate',
  '--no-sign-request',
  '--cli-auto-prompt',
  '--no-cli-auto-prompt',
]);
const OUTPUT_CHOICES = ['json', 'text', 'table', 'yaml', 'yaml-stream'];

/** The lab's line after argparse's answer to --help/-h (the `aws help` man pages are not rendered here). */
const AWS_HELP_NOTE =
  'ec2-netlab: aws ec2 and aws cloudwatch operations are simulated; the `aws help` pages are not (`man aws` says what is modelled).\n';

export function runAws(args: string[], lab: Lab): CommandOutcome {
  // global options may appear anywhere (argparse parses them with the top-level parser)
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (GLOBAL_VALUE_OPTIONS.has(name)) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (value === undefined) return usage(`argument ${name}: expected one argument`);
      if (name === '--output') {
        if (!OUTPUT_CHOICES.includes(value))
          return usage(
            `argument --output: Invalid choice, valid choices are:\n\n${OUTPUT_CHOICES.join(' | ')}`,
          );
        if (value !== 'json')
          return fail(`aws: --output ${value} is not simulated in ec2-netlab (json only)`, AWS_EXIT.usage);
      } else if (name === '--region') {
        if (value !== LAB_REGION_NAME)
          return fail(
            `aws: --region ${value} is not simulated in ec2-netlab (the lab's VPC is in ${LAB_REGION_NAME})`,
            AWS_EXIT.usage,
          );
      } else if (name !== '--profile') {
        return fail(`aws: option ${name} is not simulated in ec2-netlab`, AWS_EXIT.usage);
      }
      continue;
    }
    if (GLOBAL_FLAGS.has(a)) {
      if (a !== '--no-cli-pager' && a !== '--no-paginate')
        return fail(`aws: option ${a} is not simulated in ec2-netlab`, AWS_EXIT.usage);
      continue;
    }
    if (a === '--version')
      return done('aws-cli/2.15.30 Python/3.11.8 Linux/6.1.0 exe/x86_64.amzn.2023 prompt/off\n');
    rest.push(a);
  }
  // awscli 2.15.30's parsers have no --help/-h (add_help=False): parse_known_args leaves them
  // unknown, so before an operation is named the positional left missing is what argparse reports
  const positional = rest.filter((a) => a !== '--help' && a !== '-h');
  const helpFlag = positional.length < 2 && positional.length < rest.length;
  const [service, op, ...opArgs] = helpFlag ? positional : rest;
  if (helpFlag && (service === undefined || service === 'ec2' || service === 'cloudwatch')) {
    const r =
      service === undefined
        ? usage('the following arguments are required: command')
        : service === 'ec2'
          ? runEc2(op, opArgs, lab)
          : runCloudWatch(op, opArgs, lab);
    return r.kind === 'done' ? fail(r.out.stderr + AWS_HELP_NOTE, r.out.exitCode) : r;
  }
  if (service === undefined) return usage('the following arguments are required: command');
  if (service === 'help' || op === 'help' || opArgs.includes('help'))
    return fail(
      'aws: help pages are not simulated in ec2-netlab (`man aws` says which operations and options are modelled)',
      AWS_EXIT.usage,
    );
  if (service === 'cloudwatch') return runCloudWatch(op, opArgs, lab);
  if (service !== 'ec2')
    return fail(
      `aws: the ${service} service is not simulated in ec2-netlab (only aws ec2 and aws cloudwatch)`,
      AWS_EXIT.usage,
    );
  return runEc2(op, opArgs, lab);
}
