/**
 * ENA Express (AWS SRD): which instance types AWS lists as supported, and the figures of the feature
 * that do not depend on the type (the SRD MTU). The per-type `enaExpressSupported` flag of the
 * catalog (API field NetworkInfo.EnaSrdSupported) must agree with this list for every catalogued
 * type; tests/engine/catalog.test.ts checks that.
 *
 * Source: AWS-ENAX "Supported instance types for ENA Express" (docs/domain-facts.md §2.7): large sizes of
 * Nitro v4+ families only; no Nitro v2/v3 type (C5, C5n, M5) is listed. Entries are per family with
 * the smallest listed size; every larger size and the metal sizes of the family are listed too.
 * Only families the catalog models appear here.
 */
import { documented, type Figure } from './figure';

/** Size order used to compare "this size and larger" (API size names). */
const SIZE_ORDER = [
  'medium',
  'large',
  'xlarge',
  '2xlarge',
  '4xlarge',
  '8xlarge',
  '9xlarge',
  '12xlarge',
  '16xlarge',
  '18xlarge',
  '24xlarge',
  '32xlarge',
  '48xlarge',
] as const;

/** Smallest supported size per family (AWS-ENAX table), metal sizes included. */
export const ENA_EXPRESS_SUPPORTED_FAMILIES: Figure<Readonly<Record<string, string>>> = documented(
  Object.freeze({
    c6i: '8xlarge',
    c6in: '8xlarge',
    c6gn: '4xlarge',
    c7i: '12xlarge',
    c7gn: '4xlarge',
    c8g: '8xlarge',
    m6i: '8xlarge',
    m7i: '12xlarge',
  }),
  'AWS-ENAX',
  'Supported instance types for ENA Express: c6i.8xlarge and up, c6in.8xlarge+, c6gn.4xlarge+, c7i.12xlarge+ (so c7i.large … 8xlarge are not), c7gn.4xlarge+, c8g.8xlarge+, m6i.8xlarge+, m7i.12xlarge+; metal sizes of these families included. No Nitro v2/v3 family. c8g: AWS-ENAX lists it while the AWS-CO table says "No" (docs/domain-facts.md §8.6); the feature page wins.',
);

/** Whether AWS-ENAX lists the type (e.g. 'c6in.8xlarge' → true, 'c7i.large' → false). */
export function enaExpressListed(typeName: string): boolean {
  const dot = typeName.indexOf('.');
  if (dot < 0) return false;
  const family = typeName.slice(0, dot);
  const size = typeName.slice(dot + 1);
  const min = ENA_EXPRESS_SUPPORTED_FAMILIES.value[family];
  if (min === undefined) return false;
  if (size.startsWith('metal')) return true;
  const i = SIZE_ORDER.indexOf(size as (typeof SIZE_ORDER)[number]);
  const m = SIZE_ORDER.indexOf(min as (typeof SIZE_ORDER)[number]);
  return i >= 0 && m >= 0 && i >= m;
}

/** Largest IP packet that travels over SRD; bigger eligible packets fall back to standard ENA. */
export const ENA_EXPRESS_MTU_BYTES: Figure<number> = documented(
  8900,
  'AWS-ENAX "Tune performance"; ENA-UTIL check-ena-express-settings.sh; AWS-ENAPERF',
  'ENA Express needs a lower MTU than 9001 for its SRD headers. New TCP connections have their MSS clamped automatically; UDP senders must lower the MTU themselves (the AWS checker requires ≤ 8900). Eligible packets above it fall back to standard ENA but are still counted in ena_srd_eligible_tx_pkts.',
);
