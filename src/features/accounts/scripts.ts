// Whether a username keeps to one writing system, by Unicode TR39's "highly restrictive" level:
// one script (Ukrainian `олена`, English `alice`), or Latin beside Chinese, Japanese or Korean.
// Latin mixed with Cyrillic or Greek is refused: `аlice` with a Cyrillic а shows as `alice`.

// Every script of Unicode 17 but Common, Inherited and Unknown (PropertyValueAliases.txt, long
// names). `scripts.test.ts` checks that each letter and digit of the running Node.js has one.
const SCRIPT_NAMES = `Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali
  Beria_Erfe Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham
  Cherokee Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan
  Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Garay Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi
  Gurmukhi Gurung_Khema Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inscriptional_Pahlavi
  Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki
  Khudawadi Kirat_Rai Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Malayalam Mandaic
  Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi
  Mongolian Mro Multani Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham
  Ol_Chiki Ol_Onal Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian
  Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang
  Runic Samaritan Saurashtra Sharada Shavian Siddham Sidetic SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese
  Sunuwar Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri Tamil Tangsa Tangut Telugu Thaana
  Thai Tibetan Tifinagh Tirhuta Todhri Tolong_Siki Toto Tulu_Tigalari Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi
  Zanabazar_Square`.split(/\s+/);

/** A script's test, when this Node.js knows the script (an older Unicode lacks the newest ones). */
function scriptPattern(names: string[]): RegExp | null {
  try {
    return new RegExp(`^[${names.map((name) => `\\p{Script_Extensions=${name}}`).join('')}]$`, 'u');
  } catch {
    return null;
  }
}

/**
 * What a letter may belong to: each script, and TR39's three for the scripts written together
 * (Han with Bopomofo; Han, Hiragana and Katakana for Japanese; Han and Hangul for Korean).
 */
const CJK = [scriptPattern(['Han', 'Bopomofo']), scriptPattern(['Han', 'Hiragana', 'Katakana']), scriptPattern(['Han', 'Hangul'])].filter((pattern) => pattern !== null);
const SCRIPTS = [...SCRIPT_NAMES.map((name) => scriptPattern([name])).filter((pattern) => pattern !== null), ...CJK];

/** Digits, signs and combining marks used by every script (`_ . - @ +`, `1`): they mix with any. */
const NEUTRAL = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u;
const LATIN = /^\p{Script_Extensions=Latin}$/u;
const ASCII = /^[\p{ASCII}]*$/u;

/** Some script, or one of the CJK three, holds every character (a character may be of several: its script extensions). */
const oneScriptHolds = (chars: string[], scripts: RegExp[]) => scripts.some((script) => chars.every((char) => script.test(char)));

/** True when `name` mixes writing systems (Latin and Cyrillic, Latin and Greek...) beyond Latin beside Chinese, Japanese or Korean. */
export function mixesScripts(name: string): boolean {
  if (ASCII.test(name)) return false;
  const chars = [...new Set(name)].filter((char) => !NEUTRAL.test(char));
  if (chars.length === 0 || oneScriptHolds(chars, SCRIPTS)) return false;
  return !oneScriptHolds(chars.filter((char) => !LATIN.test(char)), CJK);
}

/** Every character the scripts above know, with the neutral ones: for the test that none is missing. */
export const KNOWN_SCRIPTS = scriptPattern([...SCRIPT_NAMES.filter((name) => scriptPattern([name]) !== null), 'Common', 'Inherited']);
