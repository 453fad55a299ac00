-- A login code's wrong tries are counted in LoginThrottle (outside the refused call's transaction), not on the code.
ALTER TABLE "LoginCode" DROP COLUMN "attempts";
