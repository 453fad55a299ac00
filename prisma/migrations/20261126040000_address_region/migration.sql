-- A state, province or region for addresses outside Denmark (the UCP samples' US addresses carry one).
ALTER TABLE "Address" ADD COLUMN "region" TEXT;
