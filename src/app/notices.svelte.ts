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

  dismiss(id: number): void {
    this.list = this.list.filter((n) => n.id !== id);
  }
}
