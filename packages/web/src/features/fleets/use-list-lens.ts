import { useCallback, useState } from 'react';

export type ListLens = 'table' | 'grid';

/** Where the table/grid choice of the application lists is remembered. */
export const LIST_LENS_STORAGE_KEY = 'flotilla.applications.lens';

function readLens(): ListLens {
  try {
    return localStorage.getItem(LIST_LENS_STORAGE_KEY) === 'grid' ? 'grid' : 'table';
  } catch {
    return 'table'; // storage blocked: the default lens, not remembered
  }
}

/** The lens of the application lists, remembered in localStorage across pages and visits. */
export function useListLens(): [ListLens, (lens: ListLens) => void] {
  const [lens, setLensState] = useState<ListLens>(readLens);
  const setLens = useCallback((next: ListLens) => {
    setLensState(next);
    try {
      localStorage.setItem(LIST_LENS_STORAGE_KEY, next);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
  }, []);
  return [lens, setLens];
}
