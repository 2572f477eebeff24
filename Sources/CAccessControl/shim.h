// Extended attributes, which Swift's Glibc module does not import: getxattr(2) reads a file's
// POSIX access control list (system.posix_acl_access), which SecretFile checks.
#include <sys/xattr.h>
