// Wraps the variadic jack_client_open for Swift, and tells whether another client has the same name. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "CFoldback.h"
#include <jack/session.h>
#include <stddef.h>
#include <string.h>

jack_client_t *fb_jack_client_open(const char *client_name, jack_options_t options,
                                   jack_status_t *status, const char *server_name) {
    if (server_name != NULL && server_name[0] != '\0') {
        return jack_client_open(client_name, options | JackServerName, status, server_name);
    }
    return jack_client_open(client_name, options, status);
}

int fb_jack_client_name_is_shared(jack_client_t *client) {
    char *own = jack_client_get_uuid(client);
    char *named = jack_get_uuid_for_client_name(client, jack_get_client_name(client));
    int shared = own != NULL && named != NULL && strcmp(own, named) != 0;
    if (own != NULL) jack_free(own);
    if (named != NULL) jack_free(named);
    return shared;
}
