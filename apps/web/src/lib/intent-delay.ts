/**
 * How long the pointer rests on a link or a row before its request starts (intent preload), in
 * ms: a pointer passing over on its way elsewhere starts nothing. Its own module: the router
 * setup of the first load needs only this number.
 */
export const INTENT_DELAY_MS = 100;
