// CZlib - the system zlib (Debian: zlib1g-dev), used only by PropertyList/Compression.
#include <zlib.h>
