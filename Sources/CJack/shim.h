#include <jack/jack.h>
#include <jack/metadata.h>
#include <jack/uuid.h>
#include <jack/midiport.h>
#include <jack/thread.h>
