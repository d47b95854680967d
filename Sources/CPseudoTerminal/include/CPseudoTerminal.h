// CPseudoTerminal: what the test support needs from C to run a program in a pseudo-terminal
// (posix_openpt and friends, a window-size ioctl, posix_spawn's setsid flag), which Swift's
// Glibc module does not import. Used by tests and the bench only.
#ifndef COLOURFUL_BALL_CPSEUDOTERMINAL_H
#define COLOURFUL_BALL_CPSEUDOTERMINAL_H

#include <stddef.h>

/// Opens a pseudo-terminal: the master's descriptor (or -1), and the slave's path in `name`.
int cpt_open_pseudo_terminal(char *name, size_t length);

/// Sets the window size of terminal `fd` (a pseudo-terminal's master); 0 on success.
int cpt_set_window_size(int fd, int rows, int columns);

/// posix_spawn's flag for starting the child in a new session.
short cpt_posix_spawn_setsid(void);

#endif
