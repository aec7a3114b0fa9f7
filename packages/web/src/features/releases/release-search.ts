/**
 * The release list's search (spec 2 §2, §5: by version or by tag key/value) as a pine
 * $filter: the text, lower-cased, is contained in raw_version or semver, or in the key or
 * the value of one of the release's tags. `key=value` narrows to one tag whose key contains
 * `key` and whose value contains `value`.
 */
// A path as an array: pinejs-client would percent-encode the slash of 'rt/tag_key'.
const lower = (path: string[]) => ({ $tolower: { $: path } });
const contains = (path: string[], text: string) => ({ $contains: [lower(path), text] });
const tagMatches = (expr: object) => ({ release_tag: { $any: { $alias: 'rt', $expr: expr } } });

export function releaseSearchFilter(search: string): object | undefined {
  const text = search.trim().toLowerCase();
  if (text === '') return undefined;
  const eq = text.indexOf('=');
  if (eq > 0) {
    const key = text.slice(0, eq).trim();
    const value = text.slice(eq + 1).trim();
    return tagMatches({ $and: [contains(['rt', 'tag_key'], key), contains(['rt', 'value'], value)] });
  }
  return {
    $or: [contains(['raw_version'], text), contains(['semver'], text), tagMatches({ $or: [contains(['rt', 'tag_key'], text), contains(['rt', 'value'], text)] })],
  };
}
