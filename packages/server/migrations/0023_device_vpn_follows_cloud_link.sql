-- Issue 12: the cloud link is Flotilla's VPN, so is_connected_to_vpn follows it from now on
-- (balena-sdk's device.isOnline reads it); devices linked now start out right.
UPDATE "device" SET "is_connected_to_vpn" = "is_online" WHERE "is_connected_to_vpn" <> "is_online";
