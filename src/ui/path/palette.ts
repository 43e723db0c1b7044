/**
 * Colours of the path view. Flows, RSS queues and vCPUs are told apart with the Okabe–Ito palette
 * (Okabe & Ito, "Color Universal Design", 2008), which stays distinguishable under the common
 * colour-vision deficiencies. Vermillion is kept for drops only, so a drop never looks like a flow.
 */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
  grey: '#999999',
} as const;

/** Category colours in order (vermillion excluded: it marks drops). */
export const CATEGORY_COLOURS: readonly string[] = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
  OKABE_ITO.yellow,
  OKABE_ITO.grey,
];

export const DROP_COLOUR = OKABE_ITO.vermillion;

/** Colour of category `k` (cycles past the palette's length; -1 = unknown → grey). */
export function categoryColour(k: number): string {
  if (k < 0) return OKABE_ITO.grey;
  return CATEGORY_COLOURS[k % CATEGORY_COLOURS.length]!;
}
