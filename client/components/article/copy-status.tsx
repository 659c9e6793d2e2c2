import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** The 'Copied!' confirmation lasts 2 seconds. */
const COPIED_MS = 2000;

interface CopyStatus {
  /** The sample that was just copied, or null. */
  copiedKey: string | null;
  markCopied: (key: string) => void;
}

const CopyStatusContext = createContext<CopyStatus | null>(null);

/**
 * Which sample on the page was just copied lives here rather than in each sample, so that
 * copying a second one clears the first at once: only one button ever reads 'Copied!'.
 */
export function CopyStatusProvider({ children }: { children: ReactNode }) {
  const [copiedKey, setCopiedKey] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const markCopied = useCallback((key: string) => {
    clearTimeout(timer.current);
    setCopiedKey(key);
    timer.current = setTimeout(() => setCopiedKey(null), COPIED_MS);
  }, []);

  const value = useMemo(() => ({ copiedKey, markCopied }), [copiedKey, markCopied]);
  return <CopyStatusContext.Provider value={value}>{children}</CopyStatusContext.Provider>;
}

export function useCopyStatus(): CopyStatus {
  const status = useContext(CopyStatusContext);
  if (!status) throw new Error('useCopyStatus needs a CopyStatusProvider');
  return status;
}
