package dev.cabinet.support;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Checks a presigned S3 request as Amazon S3 does, with the AWS SDK's own SigV4 signer: the request as it would arrive
 * (method, URL, the headers the client sends) is signed again with the same key, time, region and lifetime, and the
 * signature must come out the same. s3rver does not check SigV4 signatures (it checks only their expiry), so this is
 * how the tests show what a signature binds: change a signed header (the length, the type) or the URL, and it fails.
 */
public final class PresignedUrls {

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private PresignedUrls() {
    }

    /** Whether S3 would accept {@code method url} sent with {@code headers}, signed by this key pair. */
    public static boolean signatureMatches(String method, String url, Map<String, String> headers, String accessKey,
            String secretKey) {
        URI uri = URI.create(url);
        Map<String, String> query = query(uri);
        String[] credential = query.get("X-Amz-Credential").split("/");
        Instant signedAt = AMZ_DATE.parse(query.get("X-Amz-Date"), Instant::from);
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.fromValue(method))
                .protocol(uri.getScheme()).host(uri.getHost()).port(uri.getPort())
                .encodedPath(uri.getRawPath());
        query.forEach((name, value) -> {
            if (!name.startsWith("X-Amz-")) {
                request.appendRawQueryParameter(name, value);
            }
        });
        for (String signed : query.get("X-Amz-SignedHeaders").split(";")) {
            if (signed.equals("host")) {
                continue;   // the signer derives it from the URL
            }
            String value = headers.entrySet().stream().filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals(signed))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (value == null) {
                return false;   // a signed header the client does not send: S3 refuses the request
            }
            request.putHeader(signed, value);
        }
        SignedRequest resigned = AwsV4HttpSigner.create().sign(sign -> sign
                .request(request.build())
                .identity(AwsBasicCredentials.create(accessKey, secretKey))
                .putProperty(AwsV4HttpSigner.REGION_NAME, credential[2])
                .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, credential[3])
                .putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION,
                        Duration.ofSeconds(Long.parseLong(query.get("X-Amz-Expires"))))
                .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)));
        String expected = resigned.request().firstMatchingRawQueryParameter("X-Amz-Signature").orElseThrow();
        return expected.equals(query.get("X-Amz-Signature"))
                && resigned.request().firstMatchingRawQueryParameter("X-Amz-SignedHeaders").orElseThrow()
                        .equals(query.get("X-Amz-SignedHeaders"));
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> query = new LinkedHashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            query.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return query;
    }
}
