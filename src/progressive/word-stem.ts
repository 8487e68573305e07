// The light English stemmer of tool search: plural, -ing, -ed and -ies
// stripped, irregular past forms sent to their base.

/**
 * Past forms of common English irregular verbs and their base (a standard
 * grammar-book list, not any catalogue's words): `sent` meets `send`,
 * `paid` meets `pay`, `chosen` meets `choose`.
 */
const IRREGULAR_VERBS: ReadonlyMap<string, string> = new Map(
  (
    "began:begin begun:begin bought:buy broke:break broken:break brought:bring built:build caught:catch " +
    "chose:choose chosen:choose came:come dealt:deal drew:draw drawn:draw drove:drive driven:drive ate:eat " +
    "eaten:eat fell:fall fallen:fall fed:feed felt:feel fought:fight found:find flew:fly flown:fly " +
    "forgot:forget forgotten:forget froze:freeze frozen:freeze gave:give given:give went:go gone:go " +
    "got:get gotten:get grew:grow grown:grow heard:hear held:hold hid:hide hidden:hide kept:keep " +
    "knew:know known:know laid:lay led:lead left:leave lent:lend lost:lose made:make meant:mean met:meet " +
    "paid:pay ran:run rang:ring rung:ring rode:ride ridden:ride rose:rise risen:rise said:say saw:see " +
    "seen:see sought:seek sold:sell sent:send shook:shake shaken:shake shot:shoot shown:show sang:sing " +
    "sung:sing sat:sit slept:sleep spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal " +
    "stolen:steal stuck:stick struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim " +
    "took:take taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw " +
    "thrown:throw understood:understand woke:wake woken:wake wore:wear worn:wear won:win wound:wind " +
    "withdrew:withdraw withdrawn:withdraw wrote:write written:write"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/**
 * Light suffix stripping (plural, -ing, -ed, -ies): enough for `files`/`file`,
 * `listing`/`list`, `created`/`create`; irregular past forms go to their base
 * (`sent` → `send`).
 */
export function stem(word: string): string {
  const base = IRREGULAR_VERBS.get(word);
  if (base !== undefined) return stem(base);
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && hasVowel(word.slice(0, -3)) && word.length > 6) {
    return trimDouble(word.slice(0, -3));
  }
  if (word.endsWith("ied")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ed") && !word.endsWith("eed") && word.length > 5) return trimDouble(word.slice(0, -2));
  if (/(?:ch|sh|x|ss|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return dropSilentE(word.slice(0, -1));
  return dropSilentE(word);
}

function hasVowel(word: string): boolean {
  return /[aeiouy]/.test(word);
}

/** `runn` → `run`, `stopp` → `stop` (a doubled consonant left by -ing/-ed). */
function trimDouble(word: string): string {
  const last = word.at(-1);
  if (word.length > 3 && last === word.at(-2) && last !== undefined && !"aeioulsz".includes(last)) {
    return word.slice(0, -1);
  }
  return dropSilentE(word);
}

/** `create` and `creat(ed)` meet at `creat`; `delete` and `delet(ing)` at `delet`. */
function dropSilentE(word: string): string {
  return word.length > 4 && word.endsWith("e") && !word.endsWith("ee") ? word.slice(0, -1) : word;
}
