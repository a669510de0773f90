// NSObject as far as a delegate proxy needs it: identity, responds-to, forwarding. Not audited for nullability,
// as Apple's header is not: `SEL` parameters import as `Selector!`.
#ifndef FANOUT_MOCK_NSOBJECT_H
#define FANOUT_MOCK_NSOBJECT_H
#include "objc.h"

@protocol NSObject
- (BOOL)isEqual:(id)object;
@property (readonly) NSUInteger hash;
- (BOOL)respondsToSelector:(SEL)selector;
@end

@interface NSObject <NSObject>
+ (instancetype)alloc;
- (instancetype)init;
+ (BOOL)instancesRespondToSelector:(SEL)selector;
- (id)forwardingTargetForSelector:(SEL)selector;
@end

#endif
