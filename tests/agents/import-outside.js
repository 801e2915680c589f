//! exit: 1
//! stderr: outside the agent's folder
import "../../../../../../etc/passwd";
export default async () => 1;
