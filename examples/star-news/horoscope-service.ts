import type { Horoscope, StarPerson } from "./domain.js";

const READINGS: Readonly<Record<StarPerson["sign"], string>> = {
  Aries: "Bold starts pay off; finish one thing before the next.",
  Taurus: "Patience with money brings a pleasant surprise.",
  Gemini: "A conversation you postponed turns out to be easy.",
  Cancer: "Home is where the good news arrives.",
  Leo: "Someone notices the work you did quietly.",
  Virgo: "Tidy up a plan and it will carry you far.",
  Libra: "Balance returns after a busy week.",
  Scorpio: "Trust your instinct about a new collaboration.",
  Sagittarius: "A short trip opens a long opportunity.",
  Capricorn: "Slow, steady progress beats a lucky break.",
  Aquarius: "An unusual idea finds its audience.",
  Pisces: "Creative work flows; write it down.",
};

/**
 * A deterministic horoscope source (a real app would call a web service).
 * Used by a plain, non-LLM action: GOAP plans it like any other step.
 */
export function horoscopeFor(sign: StarPerson["sign"], date: string): Horoscope {
  return { sign, date, summary: READINGS[sign] };
}
