-- Uploaded images in the database (every process serves them) and their resized WebP renditions.
CREATE TABLE "StoredImage" (
    "id" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StoredImage_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "StoredImageRendition" (
    "imageId" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "StoredImageRendition_pkey" PRIMARY KEY ("imageId", "width")
);
ALTER TABLE "StoredImageRendition" ADD CONSTRAINT "StoredImageRendition_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "StoredImage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
