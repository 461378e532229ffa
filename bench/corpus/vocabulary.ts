/**
 * The raw material the generated corpora draw from: words of a coding
 * session, paths, identifiers, and the scripts a fleet's answers are written
 * in (CJK, kana, hangul, Latin with combining marks), plus emoji.
 */
import type { Prng } from './prng.js';

export const WORDS = (
  'agent pane shard build test error warning ok tool call diff patch review lint commit merge branch rebase ' +
  'function return value type interface module import export const let async await promise buffer stream ' +
  'socket request response event handler router registry session worker thread parser emulator history ' +
  'scroll cursor screen row column width height resize render frame spinner prompt input output match ' +
  'regex pattern index cache hit miss retry timeout deadline budget memory heap garbage collect allocate ' +
  'file path directory config option flag argument default environment variable process signal exit code ' +
  'the a an of to in for on with from by is are was were be been this that it its we you they should could ' +
  'would will can may must not no yes now then when while if else because so but and or also only just ' +
  'fix add remove update refactor rename move split join check verify ensure handle parse format print ' +
  'read write open close start stop run wait send receive queue flush drain pause resume spawn kill ' +
  'user server client host port token secret key permission denied allowed failed passed skipped pending'
).split(' ');

export const DIRECTORIES = ['src', 'src/main', 'src/workers', 'src/cli', 'lib', 'test', 'packages/core/src', 'apps/web/app', 'crates/engine/src', 'internal/api'];
export const EXTENSIONS = ['ts', 'tsx', 'js', 'rs', 'go', 'py', 'json', 'md'];
export const LEVELS = ['INFO', 'DEBUG', 'WARN', 'ERROR', 'TRACE'];

export function words(prng: Prng, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(prng.pick(WORDS));
  return out.join(' ');
}

export function identifier(prng: Prng): string {
  const first = prng.pick(WORDS);
  const second = prng.pick(WORDS);
  return prng.chance(50) ? `${first}${second[0]?.toUpperCase()}${second.slice(1)}` : `${first}_${second}`;
}

export function filePath(prng: Prng): string {
  return `${prng.pick(DIRECTORIES)}/${identifier(prng).replace(/_/g, '-')}.${prng.pick(EXTENSIONS)}`;
}

export function hex(prng: Prng, digits: number): string {
  let out = '';
  while (out.length < digits) out += prng.next().toString(16).padStart(8, '0');
  return out.slice(0, digits);
}

/** Common Han characters (one wide cell each). */
const HAN = '的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持音';
const KANA = 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン';
export const EMOJI = ['✅', '🚀', '🤖', '📝', '🔧', '🐛', '✨', '📦', '🔍', '💡', '⚠️', '❌', '🎉', '🧪', '📁'];

function codePointsFrom(prng: Prng, alphabet: string, count: number): string {
  const chars = [...alphabet];
  let out = '';
  for (let i = 0; i < count; i++) out += prng.pick(chars);
  return out;
}

/** A Chinese or Japanese phrase: `count` wide characters. */
export function cjkPhrase(prng: Prng, count: number): string {
  return prng.chance(70) ? codePointsFrom(prng, HAN, count) : codePointsFrom(prng, KANA + HAN.slice(0, 80), count);
}

/** Hangul syllables, composed from the whole block (11 172 of them). */
export function hangulPhrase(prng: Prng, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String.fromCodePoint(0xac00 + prng.below(11_172));
  return out;
}

/** A Latin word whose vowels carry combining marks (U+0300–U+036F), decomposed as some writers emit them. */
export function combiningWord(prng: Prng): string {
  let out = '';
  for (const char of prng.pick(WORDS)) {
    out += char;
    if ('aeiou'.includes(char) && prng.chance(60)) out += String.fromCodePoint(0x300 + prng.below(0x70));
    if (prng.chance(5)) out += String.fromCodePoint(0x300 + prng.below(0x70)); // a second mark now and then
  }
  return out;
}
