// JSON Patch (RFC 6902) applied to a JSON value: the server's `delta` messages turn the state the page holds
// into the next one (docs/protocol.md). Generic: it knows JSON Pointers and the six operations, nothing of
// the game. applyPatch returns a new value and leaves `doc` as it was; a patch that does not apply throws a
// PatchError. Its `reason` is a code and `at` the pointer or operation concerned: the page never shows them
// (it asks the server for the whole state instead), so no words are here for the catalogue to hold.

export class PatchError extends Error {
  constructor(reason, at) {
    super(`${reason}: ${JSON.stringify(at)}`);
    this.reason = reason;
    this.at = at;
  }
}

/** The reference tokens of a JSON Pointer (RFC 6901): "/a~1b/0" -> ["a/b", "0"]. */
function tokens(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || !pointer.startsWith("/")) throw new PatchError("not_a_pointer", pointer);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** An array index named by `token` in `list`; `end` allows the index just past the last item (and "-"). */
function index(list, token, end) {
  if (token === "-" && end) return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError("not_an_index", token);
  const at = Number(token);
  if (at > list.length || (at === list.length && !end)) throw new PatchError("out_of_range", at);
  return at;
}

/** The container a pointer's last token is in, and that token. */
function parent(doc, pointer) {
  const path = tokens(pointer);
  if (!path.length) return { container: null, key: null };
  let node = doc;
  for (const token of path.slice(0, -1)) {
    if (Array.isArray(node)) node = node[index(node, token, false)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else throw new PatchError("no_such_path", pointer);
  }
  if (!Array.isArray(node) && !isObject(node)) throw new PatchError("no_such_path", pointer);
  return { container: node, key: path[path.length - 1] };
}

function get(doc, pointer) {
  const { container, key } = parent(doc, pointer);
  if (container === null) return doc;
  if (Array.isArray(container)) return container[index(container, key, false)];
  if (!Object.hasOwn(container, key)) throw new PatchError("no_such_path", pointer);
  return container[key];
}

function add(doc, pointer, value) {
  const { container, key } = parent(doc, pointer);
  if (container === null) return value;
  if (Array.isArray(container)) container.splice(index(container, key, true), 0, value);
  else container[key] = value;
  return doc;
}

function remove(doc, pointer) {
  const { container, key } = parent(doc, pointer);
  if (container === null) throw new PatchError("remove_whole", pointer);
  if (Array.isArray(container)) container.splice(index(container, key, false), 1);
  else if (Object.hasOwn(container, key)) delete container[key];
  else throw new PatchError("no_such_path", pointer);
  return doc;
}

function replace(doc, pointer, value) {
  const { container, key } = parent(doc, pointer);
  if (container === null) return value;
  if (Array.isArray(container)) container[index(container, key, false)] = value;
  else if (Object.hasOwn(container, key)) container[key] = value;
  else throw new PatchError("no_such_path", pointer);
  return doc;
}

function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/** `doc` with the operations of `patch` applied in order (a new value; `doc` is not changed). */
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new PatchError("not_a_list", patch);
  let out = structuredClone(doc);
  for (const op of patch) {
    switch (op?.op) {
      case "add":
        out = add(out, op.path, structuredClone(op.value));
        break;
      case "remove":
        out = remove(out, op.path);
        break;
      case "replace":
        out = replace(out, op.path, structuredClone(op.value));
        break;
      case "move": {
        if (op.path.startsWith(`${op.from}/`)) throw new PatchError("move_into_itself", op);
        const value = get(out, op.from);
        out = add(remove(out, op.from), op.path, value);
        break;
      }
      case "copy":
        out = add(out, op.path, structuredClone(get(out, op.from)));
        break;
      case "test":
        if (!equal(get(out, op.path), op.value)) throw new PatchError("test_failed", op.path);
        break;
      default:
        throw new PatchError("unknown_op", op);
    }
  }
  return out;
}
