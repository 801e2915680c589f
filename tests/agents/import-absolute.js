//! exit: 1
//! stderr: absolute paths are not allowed
import "/etc/passwd";
export default async () => 1;
