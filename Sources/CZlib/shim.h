// CZlib - the system zlib (Debian: zlib1g-dev), used only by BinaryPlist/Compression.
#include <zlib.h>
