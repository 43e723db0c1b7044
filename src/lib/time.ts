/**
 * Calendar formatting of simulated wall-clock time, without `Date` (the engine must not read or
 * construct clocks: a run is a pure function of scenario and seed, see docs/architecture.md).
 *
 * Guarantees: pure integer arithmetic on the proleptic Gregorian calendar in UTC; identical output
 * on every platform and time zone; no leap seconds (as POSIX `time_t` and `gmtime` have none).
 */

/**
 * The lab's wall clock at simulated time 0, in Unix seconds: Mon, 02 Dec 2024 17:00:00 GMT (the
 * day of the NET402 talk the lab reproduces). 2024-12-02 is day 20059 since 1970-01-01.
 */
export const LAB_EPOCH_UNIX_S = 20059 * 86_400 + 17 * 3_600;

/** LAB_EPOCH_UNIX_S in ISO 8601, the default `settings.wallClockStart`. */
export const LAB_EPOCH_ISO = '2024-12-02T17:00:00Z';

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * Unix seconds of an ISO 8601 date-time with whole seconds and a zone: `2024-12-02T17:00:00Z`,
 * `2024-12-02T18:00:00+01:00` (a fraction of zeros is accepted). Null when it is not one, or the
 * date does not exist.
 */
export function parseIso8601(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.0+)?(Z|[+-]\d{2}:?\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const days = daysFromCivil(year, month, day);
  if (utcFields(days * 86_400).day !== day) return null; // 31 April, 29 February of a common year
  let offsetS = 0;
  const z = m[7]!;
  if (z !== 'Z') {
    const digits = z.replace(':', '');
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return null;
    offsetS = (z[0] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  return days * 86_400 + hour * 3600 + minute * 60 + second - offsetS;
}

/** ISO 8601 in UTC as the AWS CLI prints timestamps: `2024-12-02T17:00:00+00:00`. */
export function isoUtc(unixSeconds: number): string {
  const f = utcFields(unixSeconds);
  return `${f.year}-${pad2(f.month)}-${pad2(f.day)}T${pad2(f.hour)}:${pad2(f.minute)}:${pad2(f.second)}+00:00`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export interface UtcFields {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

/**
 * Split Unix seconds (fraction dropped toward −∞, as `gmtime` on a `time_t`) into UTC calendar
 * fields. Days → civil date is Howard Hinnant's `civil_from_days`
 * (https://howardhinnant.github.io/date_algorithms.html), exact for any safe integer day count.
 */
export function utcFields(unixSeconds: number): UtcFields {
  const t = Math.floor(unixSeconds);
  const days = Math.floor(t / 86_400);
  const sod = t - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097; // [0, 146096]
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // [0, 365]
  const mp = Math.floor((5 * doy + 2) / 153); // [0, 11], March = 0
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  // 1970-01-01 was a Thursday (4)
  const weekday = (((days + 4) % 7) + 7) % 7;
  return {
    year,
    month,
    day,
    hour: Math.floor(sod / 3_600),
    minute: Math.floor((sod % 3_600) / 60),
    second: sod % 60,
    weekday,
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * RFC 1123 date as iperf3 prints `start.timestamp.time`: strftime "%a, %d %b %Y %H:%M:%S GMT" over
 * gmtime (esnet/iperf src/iperf_api.c, iperf_on_connect), e.g. "Mon, 02 Dec 2024 17:00:00 GMT".
 */
export function rfc1123(unixSeconds: number): string {
  const f = utcFields(unixSeconds);
  return `${WEEKDAYS[f.weekday]}, ${pad2(f.day)} ${MONTHS[f.month - 1]} ${f.year} ${pad2(f.hour)}:${pad2(f.minute)}:${pad2(f.second)} GMT`;
}
