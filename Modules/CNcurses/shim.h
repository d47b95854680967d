// CNcurses: the wide-character ncurses API, plus inline accessors for what
// Swift 6 cannot import cleanly (mutable C globals and function-like macros).
#ifndef COLOURFUL_BALL_CNCURSES_SHIM_H
#define COLOURFUL_BALL_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>

// MARK: - Globals

static inline WINDOW *cb_stdscr(void) { return stdscr; }
static inline FILE *cb_stdout(void) { return stdout; }
static inline FILE *cb_stdin(void) { return stdin; }
static inline int cb_colors(void) { return COLORS; }

// MARK: - Mouse masks

static inline mmask_t cb_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t cb_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }

// MARK: - Terminfo

/// A terminfo string with one and with two numeric parameters filled in (tiparm is variadic,
/// which Swift cannot call).
static inline char *cb_tiparm1(const char *capability, int first) { return tiparm(capability, first); }
static inline char *cb_tiparm2(const char *capability, int first, int second) {
    return tiparm(capability, first, second);
}

// MARK: - Terminal size

/// The window size of `fd`: 0 and the size, or -1 when it cannot be read.
/// (term.h defines `lines` and `columns` as macros, hence the short names.)
static inline int cb_window_size(int fd, int *out_rows, int *out_cols) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) { return -1; }
    *out_rows = size.ws_row;
    *out_cols = size.ws_col;
    return 0;
}

#endif
