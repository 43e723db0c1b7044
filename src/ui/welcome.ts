/**
 * The welcome ("Two simulated EC2 instances, and everything between them"): open on a first
 * visit to the full lab, and once dismissed ("Got it", or "What is this?" closing it) it stays
 * dismissed across reloads (a flag in localStorage). Never opened, read or written in embed mode
 * (an embedded lab writes nothing to storage); a link opens without it, as before.
 */

/** The part of the Web Storage API this module uses (localStorage in the app, a Map in tests). */
export interface WelcomeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const WELCOME_KEY = 'ec2-netlab.welcome-dismissed';

/** localStorage when the browser allows it; null when storage is off (privacy settings). */
export function browserStorage(): WelcomeStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Whether the page opens with the welcome showing. */
export function welcomeOpensAtStart(opts: {
  embed: boolean;
  fromLink: boolean;
  storage: WelcomeStorage | null;
}): boolean {
  if (opts.embed || opts.fromLink) return false;
  try {
    return opts.storage?.getItem(WELCOME_KEY) !== '1';
  } catch {
    return true;
  }
}

/** Remember that the welcome was dismissed (nothing in embed mode; a storage that throws is ignored). */
export function rememberWelcomeDismissed(storage: WelcomeStorage | null, embed: boolean): void {
  if (embed || !storage) return;
  try {
    storage.setItem(WELCOME_KEY, '1');
  } catch {
    // storage full or refused: the welcome shows again next time, nothing worse
  }
}
