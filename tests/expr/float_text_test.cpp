// SPDX-License-Identifier: Apache-2.0
// cast<string_view>(x) of floats and doubles writes what DuckDB's CAST(x AS VARCHAR) writes (and
// Python's repr): the shortest digits that read back as x, fixed or scientific notation. The
// expected texts below were written by DuckDB 2.0.1 for random bit patterns (every exponent range,
// subnormals included) and edge values: the extremes, powers of two at the narrow gaps, the
// notation's switch points, ties, infinities, zeros of both signs.
#include "support/backend.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace colx::literals;

namespace {

struct double_case {
  std::uint64_t bits;
  char const* text;
};
struct float_case {
  std::uint32_t bits;
  char const* text;
};
// double bits, CAST(x AS VARCHAR) by DuckDB 2.0.1
constexpr double_case double_cases[] = {
    // Ties between two shortest texts: the even digit.
    {0x3e60000000000000ull, "2.9802322387695312e-08"},
    {0x4310000000000001ull, "1125899906842624.2"},
    {0x4301b66687b7abb6ull, "623203260495222.8"},
    {0x431fffffffffffffull, "2251799813685247.8"},
    // Three exponent digits, the last below 1e16, just under 1e-4.
    {0x54b249ad2594c37dull, "1e+100"},
    {0x4341c37937e07fffull, "9999999999999998.0"},
    {0x51c9bc701e7ea419ull, "9.999338659039628e+85"},
    {0xf38b2ffc80a4df5aull, "-3.8018489838888254e+248"},
    {0xa5aec7978306d03bull, "-3.5523487794838177e-127"},
    {0xf3f49249dc28ff90ull, "-3.6821467481937955e+250"},
    {0xe255accb1a466884ull, "-4.992708606780294e+165"},
    {0xe512148239292d22ull, "-7.326533831743403e+178"},
    {0x9f19950499dd251dull, "-7.278443499761433e-159"},
    {0x6bad6be28e7aa6e9ull, "4.8362718047034273e+210"},
    {0x9293de8fc88b2875ull, "-3.517932586504274e-219"},
    {0xd7a7a3cc8c3d5f16ull, "-1.8192521841733576e+114"},
    {0xc6cd75e9bb049a79ull, "-1.195063819236446e+33"},
    {0x7dabe929c4a334bfull, "2.2816967434152304e+297"},
    {0xc5e818fac0433cbdull, "-5.966270874898854e+28"},
    {0x70eb9a0a96263ae6ull, "8.776125633923528e+235"},
    {0x00a61f933d6c51e3ull, "1.5752341281612197e-305"},
    {0x14aa4e719d3c7decull, "4.0008732257178524e-209"},
    {0x498893101c593af5ull, "1.7536923935880593e+46"},
    {0x1919e93ad11745adull, "9.304815991481093e-188"},
    {0x02f0ee99731c9452ull, "1.656964682822282e-294"},
    {0xe4163207d0944996ull, "-1.3724012610166886e+174"},
    {0x7d836e77af67d461ull, "3.971297118135957e+296"},
    {0x5071950eadec6f11ull, "3.2574177083336816e+79"},
    {0x65b00a2d35d14880ull, "6.655720211093725e+181"},
    {0x59001ac9406329bcull, "5.19827343950003e+120"},
    {0xffb88309fadb8908ull, "-1.7212821201459938e+307"},
    {0x5b4c8012ede7bd0cull, "6.321750970886966e+131"},
    {0x60581ccace1d62e0ull, "1.2931814423506099e+156"},
    {0xbef7e268ffe976abull, "-2.2777952830891023e-05"},
    {0xa341738c837a7935ull, "-7.327255832131508e-139"},
    {0xb91dddd91389b372ull, "-1.4380241724181593e-33"},
    {0x16f4488157241955ull, "4.239746004662089e-198"},
    {0x89be9c1c8eb5140full, "-9.720854115286291e-262"},
    {0x49a047dc4ac87fc0ull, "4.647319769629308e+46"},
    {0x24114258751b4c83ull, "5.936379583470574e-135"},
    {0xa51149bbe060a724ull, "-3.896971358993035e-130"},
    {0xb766ff10b437bdb5ull, "-8.24953549407111e-42"},
    {0x4f1a8a1d93d20470ull, "1.1722815521462858e+73"},
    {0xd9090b8906555096ull, "-8.084075256406092e+120"},
    {0x5e6c9992b5fb12e0ull, "7.142534430491727e+146"},
    {0x7608d9425d111a9dull, "3.820580859282809e+260"},
    {0x173714726c167229ull, "7.71891432342843e-197"},
    {0xe41686cd66160227ull, "-1.3928765016704996e+174"},
    {0x8df05f2595f19a51ull, "-1.5345335769869077e-241"},
    {0xde0279e17f9ac098ull, "-7.209716160684589e+144"},
    {0x6ce9da661dcf884cull, "4.456150735942216e+216"},
    {0xcd73de0081a0ba05ull, "-1.307662411450652e+65"},
    {0xdde3a361c0099ebaull, "-1.9157985791031308e+144"},
    {0xe01c683e99a46df0ull, "-9.521958779612302e+154"},
    {0x65ed0de47db4304dull, "9.64489090850327e+182"},
    {0x864fa3f3eab06e9bull, "-2.788923118402618e-278"},
    {0xd82fb0f1423674a6ull, "-6.243480612674116e+116"},
    {0x90624fe36b82e6c9ull, "-9.436058230357898e-230"},
    {0xfb759e0fed1d9d16ull, "-5.143277550991318e+286"},
    {0x8350a73f7aac319full, "-1.0430013041381492e-292"},
    {0xce1fd3d9849acfb5ull, "-2.1451718048338964e+68"},
    {0x93550840067f0cfcull, "-1.525275774936595e-215"},
    {0xc40d31b5397a7623ull, "-6.731717630179386e+19"},
    {0xd1711cbd2106119eull, "-2.077716055390887e+84"},
    {0xf675299b0c83e786ull, "-4.164891203804912e+262"},
    {0x85f184e0b464c554ull, "-4.825637397416799e-280"},
    {0xaba4c70ee306f0c4ull, "-1.8998801252635044e-98"},
    {0xb7a1774f1a42721eull, "-1.0025021483886563e-40"},
    {0x6dedc86a9f4fb02bull, "3.3642904069310907e+221"},
    {0x2475263c78549014ull, "4.655637514654697e-133"},
    {0xe261e34a7b6bc3c6ull, "-8.240734082032373e+165"},
    {0xd98145593a9afa39ull, "-1.4271283444376214e+123"},
    {0x1f3c42b2e2cbbb93ull, "3.216197999572619e-158"},
    {0xb3618e1ca06d7a69ull, "-3.413931461733409e-61"},
    {0xac9f21df74f09af5ull, "-9.328091350838409e-94"},
    {0xb6eafff5782afe6bull, "-3.7834833370370624e-44"},
    {0xf5a9ca5fedf165daull, "-6.195929919255518e+258"},
    {0xfa97002cfcbad167ull, "-3.340079068224365e+282"},
    {0x4041f5ee8bae8e66ull, "35.92134233496908"},
    {0x66eebc578f4ecb4full, "6.686680628561264e+187"},
    {0xff8b2a6aab74fe57ull, "-2.384549545348784e+306"},
    {0x8c53765f4ec0a954ull, "-2.718315174963875e-249"},
    {0xa598d0dbccbfd2ecull, "-1.4320265515324463e-127"},
    {0xb2c55523807c7e30ull, "-4.051297835799863e-64"},
    {0xce0d8d877a98b9acull, "-9.959290240706978e+67"},
    {0x66e61127e26b524aull, "4.800770035192369e+187"},
    {0x33d918086edd77d8ull, "6.246383615856098e-59"},
    {0xd4f398ee4b5c1a95ull, "-1.7145758766073746e+101"},
    {0x025ff87c44df8a13ull, "3.0553129936729953e-297"},
    {0x265c28ea0879d955ull, "6.655975059064693e-124"},
    {0xe1cd7be8a7d83351ull, "-1.3264605886809134e+163"},
    {0xf5ee8c7298e6e5b7ull, "-1.1742428461623353e+260"},
    {0xcdb54088754e64f4ull, "-2.2381054778739863e+66"},
    {0xed4d19b885dc0a68ull, "-3.210161667876581e+218"},
    {0x5c24c1ae7d510557ull, "7.543338975044707e+135"},
    {0x33288e16ebe80fa9ull, "2.9844994527947276e-62"},
    {0xb1515fff42969a50ull, "-3.933558043941235e-71"},
    {0x7776c6557c4e4248ull, "2.937444237575022e+267"},
    {0xc446ab8c82e26123ull, "-8.363795372152784e+20"},
    {0x7f45b096d3801b73ull, "1.1899294164376829e+305"},
    {0x6f29a9f1ced66b44ull, "3.0398243065020246e+227"},
    {0xa9f5307c8ece78b0ull, "-1.4435778687393206e-106"},
    {0x089b5123e842997dull, "3.309299950411032e-267"},
    {0x4a41f8e4d4d6d278ull, "5.253292131319946e+49"},
    {0x7528ea79511070a7ull, "2.3382080124623536e+256"},
    {0xcfd8c364eab42bd6ull, "-4.480296018346649e+76"},
    {0x703e53cf192f09a9ull, "4.708380431073436e+232"},
    {0xb76dc0c3b07822dbull, "-1.0673360272899381e-41"},
    {0xf6540600c8fb4456ull, "-9.851789897731502e+261"},
    {0x4242c22583e2665aull, "161133299652.79962"},
    {0xec0643b173f29c6aull, "-2.3422781796959225e+212"},
    {0x2edc49c1f71bd135ull, "5.824588232882678e-83"},
    {0x6cffb0f0f79edc82ull, "1.0924844463516622e+217"},
    {0xba5c875cd7aa2208ull, "-1.4403343209212095e-27"},
    {0xf0acdebe7aa95416ull, "-5.737131933708844e+234"},
    {0xa60741f31075a5b0ull, "-1.7178965045934566e-125"},
    {0xe73c49ea44371ff3ull, "-1.9693856011061571e+189"},
    {0x5ec0c2607f9880a6ull, "2.678695602893853e+148"},
    {0x31d06d9c18bee074ull, "9.521163062555365e-69"},
    {0xdb4c9492bf5f85e2ull, "-6.339512770908588e+131"},
    {0x2577c324694baad6ull, "3.4280714205370067e-128"},
    {0xea9e7ab5730b89dcull, "-3.822455985307664e+205"},
    {0x17985d060397a31dull, "5.2148309327851415e-195"},
    {0x7383d496000e05d0ull, "2.7730533012748824e+248"},
    {0x8bed5b6594a4d29cull, "-3.203358754485657e-251"},
    {0xd61b5e08eea33d4eull, "-6.276691924540744e+106"},
    {0x9c31b9301543c8efull, "-7.165876024052885e-173"},
    {0x32e4034ccb348ceaull, "1.5202700625246912e-63"},
    {0x1eedfcfc3f724926ull, "1.0665053963174412e-159"},
    {0x0b6ec6f39efebfdaull, "1.3118438200819454e-253"},
    {0x8be40e7fc07991d4ull, "-2.1885261495715506e-251"},
    {0x44becdcef4d475ecull, "1.4546748979906888e+23"},
    {0xc1f6192bab215122ull, "-5931973298.082308"},
    {0x5b74c718a2aa216aull, "3.687024230689293e+132"},
    {0x01504585279e6933ull, "2.372759030072353e-302"},
    {0xaa220078503dc86bull, "-9.81134003740879e-106"},
    {0x93043fca9543c6c3ull, "-4.5890277242738644e-217"},
    {0xed1ba5c8c4ffc64eull, "-3.812362963786873e+217"},
    {0xdc56dc87f32efa03ull, "-6.64663469610393e+136"},
    {0xb093e3b47df2fc58ull, "-1.0993205754315926e-74"},
    {0xf000e394b870e4e1ull, "-3.2775574374323565e+231"},
    {0x8bb9c91222867c53ull, "-3.5170461764336947e-252"},
    {0x791572d53911c9b0ull, "1.8564972758647766e+275"},
    {0x219763c59682e074ull, "7.316904757318474e-147"},
    {0x991f77c9f551abfdull, "-1.1300322191109753e-187"},
    {0xb14ab8e9e0412118ull, "-3.024859275843194e-71"},
    {0x4a6a03b381356bc5ull, "3.041613810557567e+50"},
    {0x6af38f6c159d6a38ull, "1.569969732390024e+207"},
    {0x28fdb92dab266981ull, "3.089864350506602e-111"},
    {0x22a60b44ef5fd31cull, "9.038635217738713e-142"},
    {0xc84c1884c88f63d6ull, "-1.9120994393425775e+40"},
    {0x96060250ea3e7f73ull, "-1.4039581682117363e-202"},
    {0x81f8c04a4e564cbfull, "-3.6958932336928586e-299"},
    {0x63f1bbbc697b65cbull, "2.7412468838749775e+173"},
    {0x2606799cced8c284ull, "1.6600931711210847e-125"},
    {0xce9182088520bf0cull, "-3.020884455653757e+70"},
    {0x6041f10e325abdecull, "4.811156669030167e+155"},
    {0xf57585ce039e257aull, "-6.463273723323113e+257"},
    {0x63ac4f141b2b980eull, "1.3675101049063515e+172"},
    {0x12cc86e3e344f1c3ull, "4.0406195165512454e-218"},
    {0xd573e7bb0d26efa0ull, "-4.4582562400083136e+103"},
    {0xa5721c6a58d62944ull, "-2.612788355586e-128"},
    {0xef3e41445a789b32ull, "-7.167260143582213e+227"},
    {0xf1f02f49c50029abull, "-6.744996402686576e+240"},
    {0x068c8f90069a306full, "4.0279515642227534e-277"},
    {0x79dcbc8182a8c712ull, "1.0187969226898579e+279"},
    {0x0000000000000000ull, "0.0"},
    {0x8000000000000000ull, "-0.0"},
    {0x3ff0000000000000ull, "1.0"},
    {0xbff0000000000000ull, "-1.0"},
    {0x3fb999999999999aull, "0.1"},
    {0x3fc999999999999aull, "0.2"},
    {0x3fd3333333333333ull, "0.3"},
    {0x3ff8000000000000ull, "1.5"},
    {0x4059000000000000ull, "100.0"},
    {0x430c6bf526340000ull, "1000000000000000.0"},
    {0x4341c37937e08000ull, "1e+16"},
    {0x444b1ae4d6e2ef50ull, "1e+21"},
    {0x4480f0cf064dd592ull, "1e+22"},
    {0x44b52d02c7e14af6ull, "1e+23"},
    {0x437b69b4ba630f35ull, "1.2345678901234568e+17"},
    {0x3f1a36e2eb1c432dull, "0.0001"},
    {0x3ee4f8b588e368f1ull, "1e-05"},
    {0x3f201f31f46ed246ull, "0.000123"},
    {0x3fd5555555555555ull, "0.3333333333333333"},
    {0x3fe5555555555555ull, "0.6666666666666666"},
    {0x0000000000000001ull, "5e-324"},
    {0x0000000000000002ull, "1e-323"},
    {0x0010000000000000ull, "2.2250738585072014e-308"},
    {0x000fffffffffffffull, "2.225073858507201e-308"},
    {0x7fefffffffffffffull, "1.7976931348623157e+308"},
    {0x0000000000000001ull, "5e-324"},
    {0x4340000000000000ull, "9007199254740992.0"},
    {0x4340000000000000ull, "9007199254740992.0"},
    {0x3fd3333333333334ull, "0.30000000000000004"},
    {0x3e7ad7f29abcaf48ull, "1e-07"},
    {0x40c81cd6c8b43958ull, "12345.678"},
    {0x41b1de784a000000ull, "299792458.0"},
    {0x44dfe185ca57c517ull, "6.02214076e+23"},
    {0x3c07a4da290c1653ull, "1.602176634e-19"},
    {0x7ff0000000000000ull, "inf"},
    {0xfff0000000000000ull, "-inf"},
    {0x0000000000000003ull, "1.5e-323"},
    {0x7fe0000000000000ull, "8.98846567431158e+307"},
    {0x0010000000000000ull, "2.2250738585072014e-308"},
    {0x44b52d02c7e14af6ull, "1e+23"},
    {0x00005c0ab9347ed7ull, "5e-310"},
    {0xbfd60bf56513461cull, "-0.34447989340432783"},
    {0xc117f7423b65a3a0ull, "-392656.5580049101"},
    {0x7e3a47dc2f33b493ull, "1.1000000000000002e+300"},
    {0x405edd2f1a9fbe77ull, "123.456"},
    {0x3fe0000000000000ull, "0.5"},
    {0x3fd0000000000000ull, "0.25"},
    {0x3fc0000000000000ull, "0.125"},
};
// float bits, CAST(x AS VARCHAR) by DuckDB 2.0.1
constexpr float_case float_cases[] = {
    // Zeros, infinities, the largest subnormal.
    {0x00000000u, "0.0"},
    {0x80000000u, "-0.0"},
    {0x7f800000u, "inf"},
    {0xff800000u, "-inf"},
    {0x007fffffu, "1.1754942e-38"},
    {0x5377899au, "1063165500000.0"},
    {0xe9f91484u, "-3.7639926e+25"},
    {0x1f124a78u, "3.0978302e-20"},
    {0x7f60b9fau, "2.9871272e+38"},
    {0xf2e36355u, "-9.0077673e+30"},
    {0x7771f894u, "4.907755e+33"},
    {0x92559248u, "-6.7391255e-28"},
    {0x9e5cf6e9u, "-1.1697763e-20"},
    {0xce107503u, "-605896900.0"},
    {0x2bb53283u, "1.2874843e-12"},
    {0x27655f91u, "3.183194e-15"},
    {0x975cef7au, "-7.1388096e-25"},
    {0x850567c2u, "-6.272687e-36"},
    {0x34fd02f6u, "4.7127077e-07"},
    {0x6f00e7c4u, "3.989427e+28"},
    {0x9f93693fu, "-6.2431037e-20"},
    {0x561f8bfeu, "43855903000000.0"},
    {0x75750c2bu, "3.1063465e+32"},
    {0x9924eb8bu, "-8.526169e-24"},
    {0x3bbb492bu, "0.0057155094"},
    {0xadb21095u, "-2.0243621e-11"},
    {0xb5fc684au, "-1.8805815e-06"},
    {0x11cb4ea7u, "3.2076226e-28"},
    {0x8c1f6387u, "-1.2278865e-31"},
    {0x662f286bu, "2.0678993e+23"},
    {0x08be3b07u, "1.1449086e-33"},
    {0x320be3f8u, "8.142699e-09"},
    {0xa5b0e526u, "-3.068641e-16"},
    {0xebe48123u, "-5.5248984e+26"},
    {0x2c6193ccu, "3.2056467e-12"},
    {0x0b94a014u, "5.7248385e-32"},
    {0xa5f27419u, "-4.205898e-16"},
    {0x8b75d02au, "-4.734189e-32"},
    {0xee532f03u, "-1.6339543e+28"},
    {0xd6c769cbu, "-109628596000000.0"},
    {0x0c56037fu, "1.6487012e-31"},
    {0x73aa881eu, "2.7021828e+31"},
    {0xde3b7dd3u, "-3.3775466e+18"},
    {0xc134a79bu, "-11.290919"},
    {0xa40eecb5u, "-3.099184e-17"},
    {0x304374b3u, "7.1106426e-10"},
    {0x7bdcfd55u, "2.294887e+36"},
    {0xb600860cu, "-1.9151512e-06"},
    {0xadbafed0u, "-2.1258911e-11"},
    {0xe0b89bcbu, "-1.0641959e+20"},
    {0x053d82cbu, "8.91076e-36"},
    {0x210f4de3u, "4.8553367e-19"},
    {0xa5497863u, "-1.747476e-16"},
    {0x87a9ec13u, "-2.5567046e-34"},
    {0x37fe43ebu, "3.0310786e-05"},
    {0xc9108f89u, "-592120.56"},
    {0xe1f66c3au, "-5.682122e+20"},
    {0x845074a1u, "-2.4503836e-36"},
    {0xe50588a5u, "-3.941221e+22"},
    {0xf4e2ea68u, "-1.4382488e+32"},
    {0x2341bbbeu, "1.0502307e-17"},
    {0x290f5d0fu, "3.1833094e-14"},
    {0xa945e7bbu, "-4.394378e-14"},
    {0xd828f123u, "-743014500000000.0"},
    {0x2f9e09c9u, "2.8746985e-10"},
    {0x63d52b10u, "7.864519e+21"},
    {0x45d6ac42u, "6869.532"},
    {0x6ce4048fu, "2.2052529e+27"},
    {0x88736737u, "-7.324648e-34"},
    {0x6a01977bu, "3.9166694e+25"},
    {0xde384261u, "-3.3193203e+18"},
    {0x1422fbefu, "8.228595e-27"},
    {0x62186f4bu, "7.0298115e+20"},
    {0x4e0e8896u, "597829000.0"},
    {0x2fec4275u, "4.297537e-10"},
    {0x5814b53fu, "654024700000000.0"},
    {0x2cb8cefcu, "5.2525744e-12"},
    {0x43710bafu, "241.04564"},
    {0x76c32660u, "1.9790551e+33"},
    {0x7f62df26u, "3.0156418e+38"},
    {0xc7be5613u, "-97452.15"},
    {0xd0a3727du, "-21937514000.0"},
    {0x6a6dc402u, "7.186026e+25"},
    {0x49a4c222u, "1349700.25"},
    {0x77bb3654u, "7.59423e+33"},
    {0x2d4d6661u, "1.16756336e-11"},
    {0x5366ece2u, "991816700000.0"},
    {0x84f32551u, "-5.7163295e-36"},
    {0x7b67cfa6u, "1.2036322e+36"},
    {0x71d02f51u, "2.0617627e+30"},
    {0x1ebf3debu, "2.024852e-20"},
    {0x86f9fa21u, "-9.403092e-35"},
    {0xcbee23b0u, "-31213408.0"},
    {0x8652ab69u, "-3.9622542e-35"},
    {0xcbf5514cu, "-32154264.0"},
    {0x4619e5dbu, "9849.464"},
    {0xd0ef5c36u, "-32126382000.0"},
    {0x18357aebu, "2.345576e-24"},
    {0xd90e013au, "-2498174700000000.0"},
    {0x36de6548u, "6.6279063e-06"},
    {0x3b38c237u, "0.0028191933"},
    {0x01418223u, "3.554187e-38"},
    {0xf423f8beu, "-5.196469e+31"},
    {0x17d6af8fu, "1.3873743e-24"},
    {0x3dcccccdu, "0.1"},
    {0x3e4ccccdu, "0.2"},
    {0x3f800000u, "1.0"},
    {0x7f7fffffu, "3.4028235e+38"},
    {0x00000001u, "1e-45"},
    {0x00800000u, "1.1754944e-38"},
    {0x4b800000u, "16777216.0"},
    {0x4b800000u, "16777216.0"},
    {0x3727c5acu, "1e-05"},
    {0x5a0e1bcau, "1e+16"},
    {0x3e99999au, "0.3"},
    {0x42f6e979u, "123.456"},
    {0xc0200000u, "-2.5"},
};

template <class T, class U>
T from_bits(U bits) {
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// Casts f's column "x" to text and checks each row against `want`.
template <class F>
void check_texts(F const& f, std::vector<std::optional<std::string>> const& want) {
  auto const r = f | colx::with_columns(colx::cast<colx::string_view>("x"_c).as<"t">());
  auto const got = colx::to_strings(r["t"_c].view());
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i, want[i]);
    CHECK(got[i] == want[i]);
  }
}

}  // namespace

TEST_CASE("casts to text: doubles and floats as DuckDB writes them, the shortest digits that read back", "[expr][strings]") {
  using colx::cast;
  using colx::string_view;
  using opt = std::optional<std::string>;
  SECTION("doubles") {
    std::vector<std::optional<double>> values;
    std::vector<opt> want;
    for (auto const& c : double_cases) {
      values.emplace_back(from_bits<double>(c.bits));
      want.emplace_back(c.text);
    }
    values.emplace_back(std::numeric_limits<double>::quiet_NaN());
    want.emplace_back("nan");
    values.emplace_back(std::nullopt);  // a null row stays null
    want.emplace_back(std::nullopt);
    using S = colx::schema<colx::field<"x", double>>;
    colx::frame<S> const f(colx::make_column(values, {}, colx::test::backend_resource()));
    check_texts(f, want);
    // An unaligned slice, one row, and no rows.
    auto const tail = f.slice(3, 4) | colx::with_columns(cast<string_view>("x"_c).as<"t">());
    CHECK(colx::to_strings(tail["t"_c].view()) == std::vector<opt>{want[3]});
    auto const none = f.slice(0, 0) | colx::with_columns(cast<string_view>("x"_c).as<"t">());
    CHECK(none.num_rows() == 0);
  }
  SECTION("floats") {
    std::vector<float> values;
    std::vector<opt> want;
    for (auto const& c : float_cases) {
      values.push_back(from_bits<float>(c.bits));
      want.emplace_back(c.text);
    }
    using S = colx::schema<colx::field<"x", float, colx::not_null>>;
    colx::frame<S> const f(colx::make_column(values, {}, colx::test::backend_resource()));
    check_texts(f, want);
  }
  SECTION("read back: the text of every value parses to the value") {
    for (auto const& c : double_cases) {
      double const v = from_bits<double>(c.bits);
      colx::text::floating_text<double> const t(v);
      std::string s(static_cast<std::size_t>(t.size_bytes()), '?');
      t.write_to(s.data());
      CHECK(s == c.text);
      if (v == v) { CHECK(std::strtod(s.c_str(), nullptr) == v); }
    }
  }
}
