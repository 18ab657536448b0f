import { useSyncExternalStore } from 'react';
import type { Game } from './types';

/** The game whose pop-up is open, with the list it was opened from (for similar games). */
export interface OpenedGame {
  game: Game;
  pool: readonly Game[];
}

let opened: OpenedGame | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function openGamePopup(game: Game, pool: readonly Game[] = []) {
  opened = { game, pool };
  emit();
}

export function closeGamePopup() {
  if (opened === null) return;
  opened = null;
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useOpenedGame = () => useSyncExternalStore(subscribe, () => opened, () => null);
