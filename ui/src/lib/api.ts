// The app's commands. Outside the Tauri window (a plain browser) they reject clearly.
import { invoke } from '@tauri-apps/api/core';
import type {
  AdjustRequest, ApplyRequest, Chance, Fight, FightRequest, FlipsRequest, Flipped, OutlookRequest, BattleRow, BattleView, DiceRoll, NewBattle, RefereeError, Resolution,
  Backups, DeletedBattle, HouseRuleChoice, PresetList, ResolveRequest, RollEditPreview, RuleSection, RulesetList, SharedDocument, UnitForm, UnitPreview, UnitSpec,
} from '../generated/api';
import type { EventDocument, EventRow, EventView, HandResult, NewEvent, NewPlayer, Scoring } from './event';

function inTauri(): boolean {
  return typeof window !== 'undefined' && '__TAURI_INTERNALS__' in window;
}

// The app runs its commands off the window's main thread, where two sent at once may be taken in
// either order; the window sends them one after another, each once the one before has answered,
// so a command always sees what the one before it did (an apply after the outlook it follows).
let queue: Promise<unknown> = Promise.resolve();

async function call<T>(command: string, args: Record<string, unknown>, queued = true): Promise<T> {
  if (!inTauri()) {
    const error: RefereeError = { code: 'app.no_backend', message: 'Open the Referee app: this page needs its window.' };
    throw error;
  }
  // A pure answer that changes nothing (what the boxes are worth) need not wait its turn, nor hold
  // up the commands after it.
  if (!queued) return invoke<T>(command, args);
  const answer = queue.then(() => invoke<T>(command, args));
  queue = answer.catch(() => undefined);
  return answer;
}

/** Puts the chosen switchable rulings and house-rule files in force; answers the new list. */
export const chooseRulesets = (choice: HouseRuleChoice) => call<RulesetList>('rulesets_choose', { choice });
export const resolve = (request: ResolveRequest) => call<Resolution>('resolve', { request });
/** The situation resolved once with each box (a JSON pointer) turned over: what each is worth, in one call. */
export const resolveFlips = (request: FlipsRequest) => call<Flipped[]>('resolve_flips', { request }, false);
/** An action's dice rolled by the app as its resolution lays them out, a chain's every stage. */
export const throwDice = (request: ResolveRequest, seed?: number) => call<DiceRoll>('throw_dice', { request, seed: seed ?? null });
export const situationSchema = (ruleset: string, action: string) => call<unknown>('situation_schema', { ruleset, action });

export const battles = () => call<BattleRow[]>('battles_list', {});
export const createBattle = (request: NewBattle) => call<BattleView>('battle_create', { request });
export const viewBattle = (battle: number) => call<BattleView>('battle_view', { battle });
export const addUnit = (battle: number, unit: UnitSpec) => call<BattleView>('battle_add_unit', { battle, unit });
export const apply = (battle: number, request: ApplyRequest) => call<BattleView>('battle_apply', { battle, request });
export const fight = (battle: number, request: FightRequest) => call<Fight>('battle_fight', { battle, request });
export const outlook = (battle: number, request: OutlookRequest) => call<Chance[]>('battle_outlook', { battle, request });
export const adjust = (battle: number, request: AdjustRequest) => call<BattleView>('battle_adjust', { battle, request });
export const turn = (battle: number, turnNumber: number | null, phase: string | null) => call<BattleView>('battle_turn', { battle, turn: turnNumber, phase });
export const undo = (battle: number) => call<BattleView>('battle_undo', { battle });
export const undoTo = (battle: number, event: number) => call<BattleView>('battle_undo_to', { battle, event });
export const redo = (battle: number) => call<BattleView>('battle_redo', { battle });
export const editRoll = (battle: number, event: number, dice: number[], preview: boolean) =>
  call<[RollEditPreview, BattleView | null]>('battle_edit_roll', { battle, event, dice, preview });
/** The report or the log saved where the umpire chooses (the system's save dialog): where it went in words, or null when cancelled. */
export const battleSave = (battle: number, document: SharedDocument) => call<string | null>('battle_save', { battle, document });
export const battleLogText = (battle: number) => call<string>('battle_log_text', { battle });
export const exportBattle = (battle: number) => call<string>('battle_export', { battle });
export const importBattle = (text: string) => call<BattleView>('battle_import', { text });
export const duplicateBattle = (battle: number) => call<BattleView>('battle_duplicate', { battle });
export const deleteBattle = (battle: number) => call<null>('battle_delete', { battle });
export const importRosterCsv = (name: string, ruleset: string, text: string) => call<number>('roster_import_csv', { name, ruleset, text });
export const copyRoster = (roster: number, battle: number, side: string) => call<BattleView>('roster_copy', { roster, battle, side });
/** A backup now; answers the backups, newest first. */
export const backupNow = () => call<Backups>('db_backup', {});
export const backups = () => call<Backups>('backups_list', {});
/** Puts a listed backup in the database's place (the database as it is kept as a backup first). */
export const restoreBackup = (backup: string) => call<Backups>('backup_restore', { backup });
export const deletedBattles = () => call<DeletedBattle[]>('battles_deleted', {});
export const restoreBattle = (battle: number) => call<BattleView>('battle_restore', { battle });
/** The preferences the app keeps (whatever the file holds: the caller checks it). */
export const loadPreferences = () => call<unknown>('preferences_load', {});
export const savePreferences = (settings: unknown) => call<null>('preferences_save', { settings });
export const editUnit = (battle: number, unit: number, spec: UnitSpec) => call<BattleView>('battle_edit_unit', { battle, unit, spec });
export const removeUnit = (battle: number, unit: number) => call<BattleView>('battle_remove_unit', { battle, unit });
export const unitForm = (ruleset: string) => call<UnitForm>('unit_form', { ruleset });
export const unitPreview = (ruleset: string, stats: unknown) => call<UnitPreview>('unit_preview', { ruleset, stats });
export const rosterCsvTemplate = (ruleset: string) => call<string>('roster_csv_template', { ruleset });
export const presets = () => call<PresetList>('presets_list', {});
export const ruleSection = (ruleset: string, section: string) => call<RuleSection>('rule_section', { ruleset, section });

// Convention events: players, rounds paired, results from battles, files or by hand, standings.
export const events = () => call<EventRow[]>('event_list', {});
export const eventScorings = () => call<Scoring[]>('event_scorings', {});
export const createEvent = (request: NewEvent) => call<EventView>('event_create', { request });
export const viewEvent = (event: number) => call<EventView>('event_view', { event });
export const addPlayer = (event: number, request: NewPlayer) => call<EventView>('event_player_add', { event, request });
export const pairRound = (event: number, round: number) => call<EventView>('event_pair', { event, round });
export const swapPlayers = (event: number, round: number, a: string, b: string) => call<EventView>('event_swap', { event, round, a, b });
/** A battle begun from a pairing, its sides the two players: open it as any battle. At an event of
 * several systems, under the one named (at an event of one, the API knows it). */
export const beginEventBattle = (event: number, round: number, table: number, ruleset?: string) =>
  call<BattleView>('event_begin_battle', { event, round, table, ruleset });
export const resultFromBattle = (event: number, round: number, table: number) => call<EventView>('event_result_from_battle', { event, round, table });
/** Another table's battle file, its record checked, as a pairing's result. */
export const importEventResult = (event: number, round: number, table: number, text: string) => call<EventView>('event_result_import', { event, round, table, text });
export const resultByHand = (event: number, round: number, table: number, request: HandResult) => call<EventView>('event_result_by_hand', { event, round, table, request });
export const undoEvent = (event: number) => call<EventView>('event_undo', { event });
export const redoEvent = (event: number) => call<EventView>('event_redo', { event });
/** The standings and rounds saved where the umpire chooses: where they went in words, or null when cancelled. */
export const saveEvent = (event: number, document: EventDocument) => call<string | null>('event_save', { event, document });
/** A player leaves the event: kept in the standings, no longer paired. */
export const withdrawPlayer = (event: number, player: string) => call<EventView>('event_player_withdraw', { event, player });
