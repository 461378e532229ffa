/**
 * A pane's compact history: the physical rows that scrolled out of the
 * emulator's small scrollback, kept as flat strings (~100 B a row instead of
 * xterm's ~2 KB), oldest first, in a ring that drops the oldest row when full.
 * Storage grows with use, so an idle pane costs next to nothing.
 */
export class History {
  private texts: string[] = [];
  /** Rows with SGR escapes, by slot; allocated once a styled row arrives. */
  private styled: (string | undefined)[] | undefined;
  private wrapped = new Uint8Array(64);
  private start = 0;
  private count = 0;
  private droppedRows = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.count;
  }

  /** Rows pushed out by the capacity since the last clear. */
  get dropped(): number {
    return this.droppedRows;
  }

  push(text: string, styled: string | undefined, wrapped: boolean): void {
    let slot: number;
    if (this.count < this.capacity) {
      slot = this.count++;
      if (slot >= this.wrapped.length) this.growFlags();
    } else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
      this.droppedRows++;
    }
    this.texts[slot] = text;
    if (styled !== undefined) (this.styled ??= [])[slot] = styled;
    else if (this.styled !== undefined) this.styled[slot] = undefined;
    this.wrapped[slot] = wrapped ? 1 : 0;
  }

  /** Row `index` (0 = oldest kept): its SGR form when asked and it has one, else plain text. */
  text(index: number, withStyle: boolean): string {
    const slot = this.slot(index);
    return (withStyle ? this.styled?.[slot] : undefined) ?? this.texts[slot] ?? '';
  }

  /** Whether row `index` continues the row before it. */
  isWrapped(index: number): boolean {
    return this.wrapped[this.slot(index)] === 1;
  }

  clear(): void {
    this.texts = [];
    this.styled = undefined;
    this.wrapped = new Uint8Array(64);
    this.start = 0;
    this.count = 0;
    this.droppedRows = 0;
  }

  private slot(index: number): number {
    return (this.start + index) % this.capacity;
  }

  private growFlags(): void {
    const bigger = new Uint8Array(Math.min(this.capacity, this.wrapped.length * 2));
    bigger.set(this.wrapped);
    this.wrapped = bigger;
  }
}
