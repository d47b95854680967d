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
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>

// MARK: - Globals

static inline WINDOW *cb_stdscr(void) { return stdscr; }
static inline FILE *cb_stdout(void) { return stdout; }
static inline FILE *cb_stdin(void) { return stdin; }
static inline int cb_colors(void) { return COLORS; }
static inline int cb_lines(void) { return LINES; }
static inline int cb_cols(void) { return COLS; }

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

/// Opens a pseudo-terminal: the master's descriptor (or -1), and the slave's path in `name`.
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern int ptsname_r(int fd, char *buffer, size_t length);
static inline int cb_open_pseudo_terminal(char *name, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) { return -1; }
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, length) != 0) {
        close(master);
        return -1;
    }
    return master;
}

/// posix_spawn's flag for starting the child in a new session (glibc's value where the
/// headers hide it).
static inline short cb_posix_spawn_setsid(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}

/// Sets the window size of terminal `fd` (a pseudo-terminal's master, for tests and benchmarks).
static inline int cb_set_window_size(int fd, int rows_, int cols_) {
    struct winsize size = {0};
    size.ws_row = (unsigned short)rows_;
    size.ws_col = (unsigned short)cols_;
    return ioctl(fd, TIOCSWINSZ, &size);
}

#endif
