/** The version reported in /fe/account/info (backend) and NodeInfo. */
export const backendVersion = "0.1.0";
