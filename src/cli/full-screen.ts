/** A CLI view that owns the whole terminal (`herdr watch`, `herdr inbox`): the alternate screen, cursor hidden, and back. */
export const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l';
export const LEAVE_SCREEN = '\x1b[0m\x1b[?25h\x1b[?1049l';
