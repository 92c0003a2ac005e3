// The app's three commands. Outside the Tauri window (a plain browser) they reject clearly.
import { invoke } from '@tauri-apps/api/core';
import type { DiceRoll, RefereeError, Resolution, ResolveRequest, RulesetList } from './generated/api';

function inTauri(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

async function call<T>(command: string, args: Record<string, unknown>): Promise<T> {
  if (!inTauri()) {
    const error: RefereeError = { code: 'app.no_backend', message: 'Open the Referee app: this page needs its window.' };
    throw error;
  }
  return invoke<T>(command, args);
}

export const rulesets = () => call<RulesetList>('rulesets', {});
export const resolve = (request: ResolveRequest) => call<Resolution>('resolve', { request });
export const rollDice = (dice: string) => call<DiceRoll>('roll_dice', { request: { dice } });
