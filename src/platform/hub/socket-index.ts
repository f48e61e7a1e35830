// The socket registries (chat, the bell, live lists) keep their sockets by group, user, session or
// list: a map of sets, where a key whose set empties is dropped, so that a registry holds nothing
// for the people who have gone.

export function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

export function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
