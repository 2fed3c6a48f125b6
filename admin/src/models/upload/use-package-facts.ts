import { useEffect } from 'react';
import { manifestFile, type PackageFacts, packageFacts } from './package-facts';

/**
 * Reads the `model.json` among the chosen files, once per file chosen, and hands its facts to
 * `onFacts` (the dialog fills the fields staff left empty). A file that is not a package's
 * manifest, or cannot be read, gives nothing: the fields stay as staff typed them.
 */
export function usePackageFacts(files: readonly File[], onFacts: (facts: PackageFacts) => void): void {
  const manifest = manifestFile(files);
  useEffect(() => {
    if (!manifest) return;
    let current = true;
    manifest
      .text()
      .then((text) => {
        const facts = packageFacts(text);
        if (facts && current) onFacts(facts);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [manifest, onFacts]);
}
