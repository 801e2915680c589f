//! exit: 1
//! stderr: only relative imports
import lodash from "lodash";
export default async () => lodash;
