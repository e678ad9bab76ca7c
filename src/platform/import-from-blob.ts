// Code a person wrote, imported as an ES module without `eval`: from a blob: URL, the only place
// besides this site the page's Content-Security-Policy takes scripts from
// (src/app/content-security-policy.ts).

/** Imports code as an ES module and returns its namespace. */
export type ImportCode = (code: string) => Promise<Record<string, unknown>>;

export const importFromBlob: ImportCode = async (code) => {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  try {
    return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  } finally {
    URL.revokeObjectURL(url);
  }
};
