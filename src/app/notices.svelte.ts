// Messages to the person above the charts: the latest few, each dismissable, some with an action
// (e.g. "Start over").
export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  message: string;
  /** Items listed under the message (e.g. each URL value that was changed). */
  details?: string[];
  /** Buttons beside it (e.g. "Start over"); each dismisses the notice when pressed. */
  actions: NoticeAction[];
  /** What it is the latest word on, where a newer one replaces it (see `replace`). */
  topic?: string;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

const MAX_NOTICES = 8;

export class Notices {
  list = $state<Notice[]>([]);
  private lastId = 0;

  /** Add a notice; the same plain message twice in a row is shown once. */
  notify(
    level: NoticeLevel,
    message: string,
    action?: NoticeAction | NoticeAction[],
    details?: string[],
  ): void {
    const actions = action === undefined ? [] : Array.isArray(action) ? action : [action];
    const last = this.list[this.list.length - 1];
    if (last && last.message === message && !actions.length && !details) return;
    const next = [...this.list, { id: ++this.lastId, level, message, actions, details }];
    this.list = next.slice(-MAX_NOTICES);
  }

  /**
   * A notice that replaces every earlier one of its topic: where only the latest word holds (a
   * lane's custom mentor, loaded after it did not load), the earlier ones would say what is no
   * longer true.
   */
  replace(topic: string, level: NoticeLevel, message: string): void {
    const rest = this.list.filter((n) => n.topic !== topic);
    this.list = [...rest, { id: ++this.lastId, level, message, actions: [], topic }].slice(
      -MAX_NOTICES,
    );
  }

  dismiss(id: number): void {
    this.list = this.list.filter((n) => n.id !== id);
  }
}
