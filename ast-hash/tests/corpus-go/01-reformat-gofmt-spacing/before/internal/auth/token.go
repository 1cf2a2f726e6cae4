package auth

import (
    "crypto/hmac"
    "crypto/sha256"
    "encoding/base64"
    "errors"
    "strings"
    "time"
)

var ErrMalformed = errors.New( "auth: malformed token" )
var ErrExpired=errors.New("auth: token expired")

// Claims is the payload carried by a signed token.
type Claims struct {
    Subject string
    Expires time.Time
}

// Sign returns "<payload>.<signature>" for the claims.
func Sign(c Claims,key []byte)string{
    payload:=c.Subject+"|"+c.Expires.UTC().Format(time.RFC3339)
    enc := base64.RawURLEncoding.EncodeToString([]byte( payload ))
    return enc+"."+signature(enc,key)
}

// Verify checks the signature and the expiry and returns the claims.
func Verify(token string, key []byte, now time.Time) (Claims,error) {
    parts:=strings.SplitN(token,".",2)
    if len(parts)!=2{
        return Claims{},ErrMalformed
    }
    if !hmac.Equal([]byte(parts[1]),[]byte(signature(parts[0],key))) {
        return Claims{}, ErrMalformed
    }
    raw,err:=base64.RawURLEncoding.DecodeString(parts[0])
    if err!=nil {
        return Claims{},ErrMalformed
    }
    fields:=strings.SplitN(string(raw),"|",2)
    if len(fields) != 2 { return Claims{}, ErrMalformed }
    exp,err:=time.Parse(time.RFC3339,fields[1])
    if err!=nil {
        return Claims{},ErrMalformed
    }
    if !now.Before(exp) {
        return Claims{},ErrExpired
    }
    return Claims{Subject:fields[0],Expires:exp},nil
}

func signature(payload string,key []byte) string {
    mac:=hmac.New(sha256.New,key)
    mac.Write([]byte(payload))
    return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
