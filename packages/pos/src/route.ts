import { useEffect, useState } from 'preact/hooks';

/** Screens by the hash (#/order/<id>): the tablet's back button works and a reload stays put. */
export const go = (path: string) => {
  location.hash = `#${path}`;
};

export function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [parts, setParts] = useState(parse);
  useEffect(() => {
    const on = () => setParts(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parts;
}
